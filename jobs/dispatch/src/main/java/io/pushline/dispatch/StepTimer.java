package io.pushline.dispatch;

import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;

/**
 * One chain of processing-time steps: a step asked for sooner replaces one due later (whose timer
 * still fires, but does nothing), so an operator that reschedules from many places never runs two
 * chains at once.
 */
final class StepTimer {
    private final ProcessingTimeService time;
    private final Runnable step;
    private boolean scheduled;
    private long dueMs;
    private long generation;

    StepTimer(ProcessingTimeService time, Runnable step) {
        this.time = time;
        this.step = step;
    }

    /** Runs the step in {@code delayMs}, unless one is due sooner. */
    void in(long delayMs) {
        long due = time.getCurrentProcessingTime() + delayMs;
        if (scheduled && dueMs <= due) {
            return;
        }
        scheduled = true;
        dueMs = due;
        long mine = ++generation;
        time.registerTimer(
                due,
                t -> {
                    if (mine == generation) {
                        scheduled = false;
                        step.run();
                    }
                });
    }
}
