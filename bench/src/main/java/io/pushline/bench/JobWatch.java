package io.pushline.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/**
 * Counts how often a running job stops: each time it is seen leaving RUNNING (failing, restarting,
 * finishing), polled every 50 ms. A restart takes at least the restart strategy's first backoff (1
 * s in deploy/flink-conf), so none goes unseen.
 */
final class JobWatch implements AutoCloseable {
    private final AtomicInteger stops = new AtomicInteger();
    private final Thread poller;
    private volatile boolean closed;

    JobWatch(JobClient job) {
        poller =
                new Thread(
                        () -> {
                            boolean running = false;
                            while (!closed) {
                                JobStatus s;
                                try {
                                    s = job.getJobStatus().get(5, TimeUnit.SECONDS);
                                } catch (Exception e) {
                                    s = JobStatus.FAILED; // gone
                                }
                                if (s == JobStatus.RUNNING) {
                                    running = true;
                                } else if (running) {
                                    running = false;
                                    stops.incrementAndGet();
                                }
                                try {
                                    Thread.sleep(50);
                                } catch (InterruptedException e) {
                                    return;
                                }
                            }
                        },
                        "pushline-job-watch");
        poller.setDaemon(true);
        poller.start();
    }

    /** Stops seen so far. */
    public int stops() {
        return stops.get();
    }

    @Override
    public void close() {
        closed = true;
        poller.interrupt();
    }
}
