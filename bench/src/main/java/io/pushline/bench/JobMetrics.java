package io.pushline.bench;

import io.pushline.cluster.FlinkRest;

/** Waits on a running job's metrics, read through Flink's REST API. */
final class JobMetrics {
    private JobMetrics() {}

    /** What a wait also reads at each poll, after the metric it waits on. */
    interface Sample {
        void read() throws Exception;
    }

    /** Waits until the job's {@code metric} (summed over subtasks) reaches {@code target}. */
    static long waitFor(FlinkRest rest, String jobId, String metric, long target, int seconds)
            throws Exception {
        return waitFor(rest, jobId, metric, target, seconds, () -> {});
    }

    /**
     * {@link #waitFor} the reminder task events to be applied, sampling the tasks' state each time:
     * {@code state} ends with the largest subscription count seen and its bitmaps' bytes.
     */
    static long waitForEvents(FlinkRest rest, String jobId, long target, int seconds, long[] state)
            throws Exception {
        return waitFor(
                rest,
                jobId,
                "reminderEvents",
                target,
                seconds,
                () -> {
                    long subs = rest.sum(jobId, "subscriptions");
                    if (subs >= state[0]) {
                        state[0] = subs;
                        state[1] = rest.sum(jobId, "subscriptionBytes");
                    }
                });
    }

    // polls a live job over HTTP in wall-clock time: a benchmark's wait, not a test's
    private static long waitFor(
            FlinkRest rest, String jobId, String metric, long target, int seconds, Sample sample)
            throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        long n = 0;
        while (System.currentTimeMillis() < deadline) {
            try {
                n = rest.sum(jobId, metric);
                sample.read();
            } catch (Exception e) {
                n = 0; // the job is still starting
            }
            if (n >= target) {
                return n;
            }
            Thread.sleep(500);
        }
        return n;
    }
}
