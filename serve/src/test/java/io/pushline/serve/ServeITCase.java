package io.pushline.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.reminders.ReminderTimes;
import io.pushline.testkit.KafkaTopics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code GET /v1/reminders/{uid}} against the embedded HBase and Kafka, from a real HTTP client:
 * only open, frozen tasks firing within the window are listed, each listed task's pull lands on
 * reminder.subscriptions, bad input is a 400 naming the parameter, and requests are counted.
 */
class ServeITCase {
    static final String KEY = "serve-test-key";

    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itserve";
    static final long HOUR = 3_600_000L;

    @Test
    void theEndpointListsWhatAnAppMayFireAndRecordsThePulls() throws Exception {
        LocalStack stack = STACK.get();
        stack.kafka().recreateTopics(List.of(Topics.REMINDER_SUBSCRIPTIONS), 2);
        // noon UTC: a task at 18:00 is frozen (its day began), one tomorrow is not
        long now = java.time.Instant.parse("2026-03-10T12:00:00Z").toEpochMilli();
        try (Connection c =
                ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()))) {
            HBaseTables.ensure(c, NS);
            try (Table t = c.getTable(HBaseTables.reminders(NS))) {
                t.put(task("soon", now + 6 * HOUR, "UTC", "open"));
                t.put(task("early", now + 3 * HOUR, "UTC", "open"));
                t.put(task("tomorrow", now + 20 * HOUR, "UTC", "open")); // not frozen yet
                t.put(task("later", now + 30 * HOUR, "Pacific/Kiritimati", "open")); // > 24 h
                t.put(task("gone", now + 2 * HOUR, "UTC", "cancelled"));
                t.put(task("now", now + 1_000, "UTC", "open")); // within the margin
                Put u = new Put(HBaseTables.reminderUidRow("u1"));
                for (String id : List.of("soon", "early", "tomorrow", "later", "gone", "now")) {
                    u.addColumn(HBaseTables.FAMILY, Bytes.toBytes(id), Bytes.toBytes("0"));
                }
                t.put(u);
            }
            assertThat(now).isLessThan(ReminderTimes.freeze(now + 20 * HOUR, "UTC"));
            try (Server server =
                    Server.builder()
                            .reminders(
                                    new HBaseReminderStore(
                                            ConnectionFactory.createConnection(
                                                    HBaseTables.clientConf(stack.hbaseZkQuorum())),
                                            NS))
                            .clock(() -> now)
                            .appKey(KEY)
                            .build()) {
                int port = server.start("127.0.0.1", 0);
                HttpClient http = HttpClient.newHttpClient();

                HttpResponse<String> r = get(http, port, "/v1/reminders/u1");
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("content-type").orElse(""))
                        .startsWith("application/json");
                JsonNode body = Json.MAPPER.readTree(r.body());
                assertThat(body.get("uid").asText()).isEqualTo("u1");
                List<String> listed = new ArrayList<>();
                body.get("tasks").forEach(n -> listed.add(n.get("taskId").asText()));
                assertThat(listed).containsExactly("early", "soon");
                JsonNode first = body.get("tasks").get(0);
                assertThat(first.get("fireAt").asLong()).isEqualTo(now + 3 * HOUR);
                assertThat(first.get("title").asText()).isEqualTo("title of early");
                assertThat(first.get("body").asText()).isEqualTo("body of early");

                // a GET changes nothing: an <img> on any page must not suppress a reminder
                assertThat(
                                KafkaTopics.readAll(
                                        stack.kafkaBootstrap(), Topics.REMINDER_SUBSCRIPTIONS))
                        .as("lines a GET wrote")
                        .isEmpty();

                HttpResponse<String> nobody = get(http, port, "/v1/reminders/nobody");
                assertThat(nobody.statusCode()).isEqualTo(200);
                assertThat(Json.MAPPER.readTree(nobody.body()).get("tasks")).isEmpty();

                HttpResponse<String> tooLong = get(http, port, "/v1/reminders/" + "x".repeat(300));
                assertThat(tooLong.statusCode()).isEqualTo(400);
                assertThat(Json.MAPPER.readTree(tooLong.body()).get("error").asText())
                        .startsWith("uid:");
                HttpResponse<String> control = get(http, port, "/v1/reminders/a%01b");
                assertThat(control.statusCode()).isEqualTo(400);
                HttpResponse<String> missing = get(http, port, "/v1/nothing");
                assertThat(missing.statusCode()).isEqualTo(404);
                assertThat(missing.body()).contains("\"error\"");

                String metrics = get(http, port, "/metrics").body();
                assertThat(metrics)
                        .contains(
                                "pushline_http_requests_total{route=\"/v1/reminders/{uid}\",status=\"200\"} 2")
                        .contains(
                                "pushline_http_requests_total{route=\"/v1/reminders/{uid}\",status=\"400\"} 2")
                        .doesNotContain("nobody");
            }
        }
    }

    private static Put task(String id, long fireAt, String zone, String status) {
        Put p = new Put(HBaseTables.reminderTaskRow(id));
        add(p, "fireAt", Long.toString(fireAt));
        add(p, "zone", zone);
        add(p, "title", "title of " + id);
        add(p, "body", "body of " + id);
        add(p, "status", status);
        return p;
    }

    private static void add(Put p, String column, String value) {
        p.addColumn(HBaseTables.FAMILY, Bytes.toBytes(column), Bytes.toBytes(value));
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path)
            throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Authorization", "Bearer " + KEY)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
