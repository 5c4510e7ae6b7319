package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples each operator chain's busy and backpressured time every second while a phase runs; {@link
 * #toString} gives the averages, busiest first.
 */
final class OperatorLoad extends Thread {
    private final FlinkRest rest;
    private final String jobId;
    private final Map<String, long[]> sums = new LinkedHashMap<>();
    private volatile boolean stopped;
    private int samples;

    OperatorLoad(int port, String jobId) {
        super("bench-load");
        setDaemon(true);
        this.rest = FlinkRest.local(port);
        this.jobId = jobId;
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                Map<String, long[]> now = rest.load(jobId);
                synchronized (sums) {
                    now.forEach(
                            (name, v) -> {
                                long[] sum = sums.computeIfAbsent(name, k -> new long[2]);
                                sum[0] += v[0];
                                sum[1] += v[1];
                            });
                    samples++;
                }
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // a sample lost (the job restarting, say) is only a sample
            }
        }
    }

    String finish() throws InterruptedException {
        stopped = true;
        interrupt();
        join();
        return toString();
    }

    @Override
    public String toString() {
        synchronized (sums) {
            if (samples == 0) {
                return "no samples";
            }
            List<Map.Entry<String, long[]>> busiest = new ArrayList<>(sums.entrySet());
            busiest.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
            StringBuilder out = new StringBuilder();
            for (Map.Entry<String, long[]> e : busiest) {
                out.append(out.length() == 0 ? "" : "; ")
                        .append(
                                e.getKey().length() > 40
                                        ? e.getKey().substring(0, 40) + "…"
                                        : e.getKey())
                        .append(' ')
                        .append(e.getValue()[0] / samples)
                        .append('/')
                        .append(e.getValue()[1] / samples);
            }
            return out.toString();
        }
    }
}
