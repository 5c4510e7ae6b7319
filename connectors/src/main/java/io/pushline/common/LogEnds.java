package io.pushline.common;

import java.io.Serializable;

/** Whether the input has been read to the end of its partitions (see {@link BrokerLogEnds}). */
public interface LogEnds extends Serializable {
    /**
     * When this reader of the partition was last known to have emitted everything committed in it:
     * the wall-clock time (epoch ms) of the latest check that found nothing committed at or after
     * {@code next}, the offset after the last record it emitted; {@link Long#MIN_VALUE} when not
     * known, {@link Long#MAX_VALUE} for "always". {@code next} may be one of the Kafka source's
     * starting-offset markers (earliest, latest, committed) for a split that has not emitted a
     * record yet: then where such a reader starts.
     */
    long endVerifiedAt(String topic, int partition, long next);

    /** What the answers stand on, for a log line. */
    default String describe() {
        return "?";
    }

    /** No knowledge of log ends: every partition counts as read to its end. */
    LogEnds ALWAYS =
            new LogEnds() {
                @Override
                public long endVerifiedAt(String topic, int partition, long next) {
                    return Long.MAX_VALUE;
                }
            };
}
