package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import java.util.ArrayList;
import java.util.List;

/** What Flink's REST API says of a job's checkpoints: count, duration, bytes. */
record CheckpointStats(
        long completed, long failed, long p50Ms, long p99Ms, long maxMs, long avgBytes) {
    /**
     * The checkpoints that completed between {@code from} and {@code to} (epoch ms), from the REST
     * API's recent history: when each completed and how long it took, which tells whether
     * transactions could commit while a campaign ran.
     */
    static String within(int port, String jobId, long from, long to) {
        try {
            var root = FlinkRest.local(port).checkpoints(jobId);
            List<String> out = new ArrayList<>();
            for (var c : root.path("history")) {
                long end = c.path("latest_ack_timestamp").asLong();
                if ("COMPLETED".equals(c.path("status").asText()) && end >= from && end <= to) {
                    out.add(
                            String.format(
                                    "+%.1f s (took %d ms)",
                                    (end - from) / 1e3, c.path("end_to_end_duration").asLong()));
                }
            }
            java.util.Collections.reverse(out);
            return out.isEmpty() ? "none" : out.size() + ": " + String.join(", ", out);
        } catch (Exception e) {
            return "unavailable (" + e + ")";
        }
    }

    /**
     * The cost of the checkpoints that completed between {@code from} and {@code to} (epoch ms):
     * what one phase of a benchmark paid for them, from the REST API's history.
     */
    static String costWithin(int port, String jobId, long from, long to) {
        try {
            var root = FlinkRest.local(port).checkpoints(jobId);
            List<Long> took = new ArrayList<>();
            long bytes = 0;
            for (var c : root.path("history")) {
                long end = c.path("latest_ack_timestamp").asLong();
                if ("COMPLETED".equals(c.path("status").asText()) && end >= from && end <= to) {
                    took.add(c.path("end_to_end_duration").asLong());
                    bytes += c.path("checkpointed_size").asLong();
                }
            }
            if (took.isEmpty()) {
                return "no checkpoint completed";
            }
            long[] sorted = took.stream().mapToLong(Long::longValue).sorted().toArray();
            return String.format(
                    "%d completed, duration p50 %d ms, p99 %d ms, max %d ms, %,d bytes each on"
                            + " average",
                    sorted.length,
                    BenchResults.pct(sorted, 50),
                    BenchResults.pct(sorted, 99),
                    sorted[sorted.length - 1],
                    bytes / sorted.length);
        } catch (Exception e) {
            return "unavailable (" + e + ")";
        }
    }

    static CheckpointStats read(int port, String jobId) {
        try {
            var root = FlinkRest.local(port).checkpoints(jobId);
            var counts = root.path("counts");
            var duration = root.path("summary").path("end_to_end_duration");
            var size = root.path("summary").path("checkpointed_size");
            return new CheckpointStats(
                    counts.path("completed").asLong(),
                    counts.path("failed").asLong(),
                    duration.path("p50").asLong(),
                    duration.path("p99").asLong(),
                    duration.path("max").asLong(),
                    size.path("avg").asLong());
        } catch (Exception e) {
            System.out.println("  (checkpoint statistics unavailable: " + e + ")");
            return new CheckpointStats(-1, -1, -1, -1, -1, -1);
        }
    }

    @Override
    public String toString() {
        return String.format(
                "%,d completed, %d failed, duration p50 %d ms, p99 %d ms, max %d ms,"
                        + " %,d bytes each on average",
                completed, failed, p50Ms, p99Ms, maxMs, avgBytes);
    }
}
