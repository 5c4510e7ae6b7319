package io.pushline.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The few calls to the JobManager's REST API that the cluster commands and the chaos bench make.
 */
public final class FlinkRest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public FlinkRest(String base) {
        this.base = base;
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

    public record Job(String id, String name, String state) {}
}
