package io.pushline.bench;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * When a bench job's tasks started and when its last record was handled, as wall-clock marks its
 * tasks leave in this JVM (the bench runs its MiniCluster in-process).
 *
 * <p>A bounded job with checkpoints does not end with its last record: its tasks then wait for one
 * more checkpoint, up to a whole interval, so the job's own run time measured that wait too. The
 * same run took 16 s or 33 s depending on whether its last record came just before or just after a
 * checkpoint. A streaming job never ends; the wait is not part of the work measured.
 */
final class TaskWallClock {
    private static final AtomicLong FIRST_START = new AtomicLong(Long.MAX_VALUE);
    private static final AtomicLong LAST_END = new AtomicLong(Long.MIN_VALUE);

    private TaskWallClock() {}

    static void reset() {
        FIRST_START.set(Long.MAX_VALUE);
        LAST_END.set(Long.MIN_VALUE);
    }

    /** A task of the job is about to read its input. */
    static void started() {
        FIRST_START.accumulateAndGet(System.nanoTime(), Math::min);
    }

    /** A task handled its last record. */
    static void ended() {
        LAST_END.accumulateAndGet(System.nanoTime(), Math::max);
    }

    /** Seconds from the first start to the last end; NaN when either is missing. */
    static double seconds() {
        long start = FIRST_START.get();
        long end = LAST_END.get();
        return start == Long.MAX_VALUE || end == Long.MIN_VALUE || end < start
                ? Double.NaN
                : (end - start) / 1e9;
    }

    /** Discards its records and marks the end of its input. */
    static final class EndSink<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(T element, Context context) {}

                @Override
                public void flush(boolean endOfInput) {
                    if (endOfInput) {
                        ended();
                    }
                }

                @Override
                public void close() {}
            };
        }
    }
}
