package io.pushline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What the benchmarks read from a Flink cluster's REST API. */
final class FlinkRest {
    private FlinkRest() {}

    /** {@code /jobs/:id/checkpoints}: counts, summary (durations, sizes) and recent history. */
    static JsonNode checkpoints(URI rest, String jobId) throws Exception {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                rest.resolve("/jobs/" + jobId + "/checkpoints"))
                                        .timeout(Duration.ofSeconds(10))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        return Json.MAPPER.readTree(r.body());
    }
}
