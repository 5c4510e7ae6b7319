package io.pushline.dispatch;

import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;

/**
 * When a stage asks a failing outside system (HBase) again: after a delay that doubles from {@code
 * first} to {@code max} while it keeps failing, with at most one retry timer at a time.
 */
final class Backoff {
    private final long first;
    private final long max;
    private long delay;
    private boolean scheduled;

    Backoff(long first, long max) {
        this.first = first;
        this.max = max;
        this.delay = first;
    }

    long delayMs() {
        return delay;
    }

    /** The system failed again: wait longer before the next try. */
    void failedAgain() {
        delay = Math.min(max, delay * 2);
    }

    /** The system answered: the next failure starts from the first delay; whether it had grown. */
    boolean reset() {
        boolean grown = delay > first;
        delay = first;
        return grown;
    }

    /** Registers {@code retry} after the current delay, unless a retry is already due. */
    void schedule(ProcessingTimeService time, ProcessingTimeCallback retry) {
        if (scheduled) {
            return;
        }
        scheduled = true;
        time.registerTimer(
                time.getCurrentProcessingTime() + delay,
                t -> {
                    scheduled = false;
                    retry.onProcessingTime(t);
                });
    }
}
