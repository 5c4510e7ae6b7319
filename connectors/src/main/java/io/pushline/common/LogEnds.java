package io.pushline.common;

import java.io.Serializable;
import java.util.Collection;

/** Whether the input has been read to the end of its partitions (see {@link ConsumerLag}). */
public interface LogEnds extends Serializable {
    /** Whether this JVM's reader of the partition has read everything committed in it. */
    boolean caughtUp(String topic, int partition);

    /**
     * Whether every partition of {@code topics} this JVM reads is read to its end (and at least one
     * is read): for a reader that has not yet seen a record of its own partition.
     */
    boolean allCaughtUp(Collection<String> topics);

    /** What the answers stand on, for a log line. */
    default String describe() {
        return "?";
    }

    /** No knowledge of log ends: every partition counts as read to its end. */
    LogEnds ALWAYS =
            new LogEnds() {
                @Override
                public boolean caughtUp(String topic, int partition) {
                    return true;
                }

                @Override
                public boolean allCaughtUp(Collection<String> topics) {
                    return true;
                }
            };
}
