package io.pushline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the benchmarks read from a Flink cluster's REST API. */
final class FlinkRest {
    private FlinkRest() {}

    /** {@code /jobs/:id/checkpoints}: counts, summary (durations, sizes) and recent history. */
    static JsonNode checkpoints(URI rest, String jobId) throws Exception {
        return get(rest, "/jobs/" + jobId + "/checkpoints");
    }

    /**
     * Each operator chain's busy and backpressured time (ms per second, the busiest subtask) at
     * this moment, by name: where a pipeline's time goes while it is loaded.
     */
    static Map<String, long[]> load(URI rest, String jobId) throws Exception {
        Map<String, long[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> v : vertexMetrics(rest, jobId).entrySet()) {
            JsonNode metrics =
                    get(
                            rest,
                            v.getValue()
                                    + "?get=busyTimeMsPerSecond,"
                                    + "backPressuredTimeMsPerSecond&agg=max");
            long[] busyAndPressured = new long[2];
            for (JsonNode m : metrics) {
                int i = m.path("id").asText().startsWith("busy") ? 0 : 1;
                busyAndPressured[i] = Math.round(m.path("max").asDouble());
            }
            out.put(v.getKey(), busyAndPressured);
        }
        return out;
    }

    /** The sum over every subtask of each metric whose name ends with {@code suffix}. */
    static long sum(URI rest, String jobId, String suffix) throws Exception {
        long total = 0;
        for (String base : vertexMetrics(rest, jobId).values()) {
            for (JsonNode m : get(rest, base)) {
                String id = m.path("id").asText();
                if (id.endsWith(suffix)) {
                    for (JsonNode value : get(rest, base + "?get=" + id + "&agg=sum")) {
                        total += Math.round(value.path("sum").asDouble());
                    }
                }
            }
        }
        return total;
    }

    /** The REST API of a cluster on this machine. */
    static URI local(int port) {
        return URI.create("http://localhost:" + port + "/");
    }

    /** Each operator chain's name and the path of its subtasks' metrics. */
    private static Map<String, String> vertexMetrics(URI rest, String jobId) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode v : get(rest, "/jobs/" + jobId).path("vertices")) {
            out.put(
                    v.path("name").asText(),
                    "/jobs/" + jobId + "/vertices/" + v.path("id").asText() + "/subtasks/metrics");
        }
        return out;
    }

    private static JsonNode get(URI rest, String path) throws Exception {
        String base = rest.toString();
        return new io.pushline.cluster.FlinkRest(
                        base.endsWith("/") ? base.substring(0, base.length() - 1) : base)
                .get(path);
    }
}
