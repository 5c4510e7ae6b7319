package io.pushline.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The calls to a JobManager's REST API that the cluster commands and the benchmarks make (jobs,
 * TaskManagers, checkpoint statistics, operator load and metrics): the one REST client of the
 * project. Flink's own {@code RestClusterClient} submits and stops jobs but has no calls for the
 * metrics and checkpoint statistics the benchmarks read, so this reads the documented JSON.
 */
public final class FlinkRest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public FlinkRest(String base) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /** The REST API of a JobManager (or MiniCluster) on this machine. */
    public static FlinkRest local(int port) {
        return new FlinkRest("http://localhost:" + port);
    }

    /** The REST API at {@code uri} (a MiniCluster's address, say). */
    public static FlinkRest at(URI uri) {
        return new FlinkRest(uri.toString());
    }

    public JsonNode get(String path) throws IOException {
        HttpRequest req =
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(5))
                        .GET()
                        .build();
        HttpResponse<String> resp;
        try {
            resp = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (resp.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + resp.statusCode());
        }
        return JSON.readTree(resp.body());
    }

    /** Whether the REST endpoint answers. */
    public boolean up() {
        try {
            get("/overview");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The resource ids of the registered TaskManagers. */
    public List<String> taskManagers() throws IOException {
        List<String> ids = new ArrayList<>();
        for (JsonNode tm : get("/taskmanagers").path("taskmanagers")) {
            ids.add(tm.path("id").asText());
        }
        return ids;
    }

    /** Every job the JobManager knows: name, id, state. */
    public List<Job> jobs() throws IOException {
        List<Job> jobs = new ArrayList<>();
        for (JsonNode j : get("/jobs/overview").path("jobs")) {
            jobs.add(
                    new Job(
                            j.path("jid").asText(),
                            j.path("name").asText(),
                            j.path("state").asText()));
        }
        return jobs;
    }

    /** {@code /jobs/:id/checkpoints}: counts, summary (durations, sizes) and recent history. */
    public JsonNode checkpoints(String jobId) throws IOException {
        return get("/jobs/" + jobId + "/checkpoints");
    }

    /**
     * Each operator chain's busy and backpressured time (ms per second, the busiest subtask) at
     * this moment, by name: where a pipeline's time goes while it is loaded.
     */
    public Map<String, long[]> load(String jobId) throws IOException {
        Map<String, long[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> v : vertexMetrics(jobId).entrySet()) {
            JsonNode metrics =
                    get(
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
    public long sum(String jobId, String suffix) throws IOException {
        long total = 0;
        for (String metricsPath : vertexMetrics(jobId).values()) {
            for (JsonNode m : get(metricsPath)) {
                String id = m.path("id").asText();
                if (id.endsWith(suffix)) {
                    for (JsonNode value : get(metricsPath + "?get=" + id + "&agg=sum")) {
                        total += Math.round(value.path("sum").asDouble());
                    }
                }
            }
        }
        return total;
    }

    /**
     * Every metric of the job whose id ends with one of {@code suffixes}, by operator chain: each
     * as {@code id=min/max/sum} over the chain's subtasks (a gauge's sum is the whole job's, its
     * min and max show a subtask that differs). For a look at a job that stands still.
     */
    public Map<String, List<String>> metrics(String jobId, List<String> suffixes)
            throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> v : vertexMetrics(jobId).entrySet()) {
            List<String> ids = new ArrayList<>();
            for (JsonNode m : get(v.getValue())) {
                String id = m.path("id").asText();
                if (suffixes.stream().anyMatch(id::endsWith)) {
                    ids.add(id);
                }
            }
            List<String> values = new ArrayList<>();
            for (int i = 0; i < ids.size(); i += 20) { // a few ids a call: URLs stay short
                List<String> encoded = new ArrayList<>();
                for (String id : ids.subList(i, Math.min(ids.size(), i + 20))) {
                    encoded.add(URLEncoder.encode(id, StandardCharsets.UTF_8));
                }
                String get = String.join(",", encoded);
                for (JsonNode m : get(v.getValue() + "?get=" + get + "&agg=min,max,sum")) {
                    values.add(
                            String.format(
                                    "%s=%s/%s/%s",
                                    m.path("id").asText(),
                                    m.path("min").asText(),
                                    m.path("max").asText(),
                                    m.path("sum").asText()));
                }
            }
            if (!values.isEmpty()) {
                out.put(v.getKey(), values);
            }
        }
        return out;
    }

    /** Each operator chain's name and the path of its subtasks' metrics. */
    private Map<String, String> vertexMetrics(String jobId) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode v : get("/jobs/" + jobId).path("vertices")) {
            out.put(
                    v.path("name").asText(),
                    "/jobs/" + jobId + "/vertices/" + v.path("id").asText() + "/subtasks/metrics");
        }
        return out;
    }

    public record Job(String id, String name, String state) {}
}
