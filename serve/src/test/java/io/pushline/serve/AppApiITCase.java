package io.pushline.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.receipts.ReceiptTables;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.MetricRow;
import io.pushline.testkit.KafkaTopics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The app backends' API as a backend uses it: a real HTTP client against {@code pushline serve}'s
 * server on the embedded Kafka and HBase, each write checked on its topic with a {@code
 * read_committed} reader: the line the contract names, written once, and nothing for a refused
 * call.
 */
class AppApiITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itappapi";
    static final String ALL = "all-secret";
    static final String PUSHER = "push-secret";
    static final String DEVICES = "devices-secret";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Ids of this run: the topics may hold other tests' lines. */
    static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    static Connection hbase;
    static Server server;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        LocalStack stack = STACK.get();
        hbase = ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()));
        HBaseTables.ensure(hbase, NS);
        server = server(hbase, 1_000);
        port = server.start("127.0.0.1", 0);
    }

    static Server server(Connection c, int rate) throws Exception {
        Properties kafka = new Properties();
        kafka.setProperty("bootstrap.servers", STACK.get().kafkaBootstrap());
        return Server.builder()
                .reminders(new HBaseReminderStore(c, NS))
                .appKeys(
                        AppKeys.parse(
                                List.of(
                                        "all " + ALL + " push,devices,reminders,inbox,status",
                                        "",
                                        "# a sender that may not touch devices",
                                        "pusher " + PUSHER + " push",
                                        "registry " + DEVICES + " devices"),
                                "test keys"))
                .appRate(rate)
                .writes(new KafkaLineLog(kafka), new Idempotency(c, NS, 10_000))
                .pushStatus(PushStatusApi.hbase(c, NS))
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close(); // closes hbase with the reminder store
    }

    @Test
    void aPushIsItsLineOnPushRequestsOnceCommitted() throws Exception {
        String msgId = "m-" + RUN + "-1";
        HttpResponse<String> r =
                call(
                        "POST",
                        "/v1/push",
                        PUSHER,
                        "{\"msgId\":\""
                                + msgId
                                + "\",\"msgType\":\"news\",\"title\":\"T\",\"body\":\"B\","
                                + "\"target\":{\"uids\":[\"u1\",\"u2\"]}}");
        JsonNode a = json(r, 202);
        assertThat(a.get("msgId").asText()).isEqualTo(msgId);
        long ts = a.get("ts").asLong();
        assertThat(ts)
                .isCloseTo(
                        System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
        List<JsonNode> lines = lines(Topics.PUSH_REQUESTS, "msgId", msgId);
        assertThat(lines).hasSize(1);
        JsonNode line = lines.get(0);
        assertThat(line.get("type").asText()).isEqualTo("push");
        assertThat(line.get("ts").asLong()).isEqualTo(ts);
        assertThat(line.get("target").get("uids")).hasSize(2);

        // no msgId: the server makes one; a ts given is kept
        JsonNode made =
                json(
                        call(
                                "POST",
                                "/v1/push",
                                ALL,
                                "{\"ts\":1767225600000,\"msgType\":\"news\",\"title\":\"T\","
                                        + "\"body\":\""
                                        + RUN
                                        + "\",\"target\":{\"audience\":\"a AND b\"}}"),
                        202);
        assertThat(made.get("ts").asLong()).isEqualTo(1767225600000L);
        String madeId = made.get("msgId").asText();
        assertThat(madeId).isNotBlank();
        assertThat(lines(Topics.PUSH_REQUESTS, "msgId", madeId)).hasSize(1);
    }

    @Test
    void refusedCallsWriteNothingAndSayWhy() throws Exception {
        String msgId = "m-" + RUN + "-refused";
        String good =
                "{\"msgId\":\""
                        + msgId
                        + "\",\"msgType\":\"news\",\"title\":\"T\",\"body\":\"B\","
                        + "\"target\":{\"uids\":[\"u1\"]}}";
        assertError(call("POST", "/v1/push", null, good), 401, "Authorization");
        assertError(call("POST", "/v1/push", "wrong", good), 401, "Authorization");
        assertError(call("POST", "/v1/push", DEVICES, good), 403, "Authorization");
        assertError(send(request("POST", "/v1/push", PUSHER, good, "text/plain")), 415, null);
        assertError(
                send(
                        request(
                                "POST",
                                "/v1/push",
                                PUSHER,
                                good,
                                "application/x-www-form-urlencoded")),
                415,
                null);
        String huge = good.replace("\"body\":\"B\"", "\"body\":\"" + "x".repeat(300 * 1024) + "\"");
        assertThat(call("POST", "/v1/push", PUSHER, huge).statusCode()).isEqualTo(413);
        // what the dispatch job would send to its dead letters: a 400 naming the field
        assertError(
                call(
                        "POST",
                        "/v1/push",
                        PUSHER,
                        "{\"msgId\":\""
                                + msgId
                                + "\",\"msgType\":\"news\",\"title\":\"T\",\"body\":\"B\"}"),
                400,
                "target");
        assertError(call("POST", "/v1/push", PUSHER, "{\"msgId\":"), 400, "body");
        assertError(
                call("POST", "/v1/push", PUSHER, good.replace("{", "{\"type\":\"bind\",")),
                400,
                "type");
        assertError(
                call("PUT", "/v1/devices/d-" + RUN + "/switch", DEVICES, "{\"enabled\":\"yes\"}"),
                400,
                "enabled");
        assertError(
                call(
                        "POST",
                        "/v1/reminders/tasks",
                        ALL,
                        "{\"fireAt\":1,\"zone\":\"Mars/Olympus\",\"title\":\"t\",\"body\":\"b\"}"),
                400,
                "zone");
        // a call that passed every check, to be sure the topic is readable
        json(call("POST", "/v1/push", PUSHER, good), 202);
        assertThat(lines(Topics.PUSH_REQUESTS, "msgId", msgId)).hasSize(1);
        assertThat(lines(Topics.DEVICE_EVENTS, "deviceId", "d-" + RUN)).isEmpty();
    }

    @Test
    void devicesBindSwitchAndUnbind() throws Exception {
        String d = "d-" + RUN + "/x y"; // path segments are URL-decoded
        String path = "/v1/devices/" + d.replace("/", "%2F").replace(" ", "%20");
        JsonNode bound =
                json(
                        call(
                                "PUT",
                                path,
                                DEVICES,
                                "{\"uid\":\"u1\",\"vendor\":\"apns\",\"token\":\"tok\","
                                        + "\"tz\":\"Asia/Shanghai\"}"),
                        200);
        assertThat(bound.get("deviceId").asText()).isEqualTo(d);
        json(call("PUT", path + "/switch", DEVICES, "{\"enabled\":false}"), 200);
        json(call("DELETE", path, DEVICES, null), 200);
        List<JsonNode> lines = lines(Topics.DEVICE_EVENTS, "deviceId", d);
        assertThat(lines)
                .extracting(l -> l.get("type").asText())
                .containsExactly("bind", "switch", "unbind");
        assertThat(lines.get(0).get("token").asText()).isEqualTo("tok");
        assertThat(lines.get(0).get("ts").asLong()).isEqualTo(bound.get("ts").asLong());
        assertThat(lines.get(1).get("enabled").asBoolean()).isFalse();
        // the pusher key may not
        assertError(call("DELETE", path, PUSHER, null), 403, "Authorization");
    }

    @Test
    void reminderTasksSubscribersAndPulls() throws Exception {
        long fireAt = System.currentTimeMillis() + 86_400_000L;
        JsonNode created =
                json(
                        call(
                                "POST",
                                "/v1/reminders/tasks",
                                ALL,
                                "{\"fireAt\":"
                                        + fireAt
                                        + ",\"zone\":\"UTC\",\"title\":\"Live\",\"body\":\""
                                        + RUN
                                        + "\"}"),
                        202);
        String t = created.get("taskId").asText();
        assertThat(t).isNotBlank();
        String task = "/v1/reminders/tasks/" + t;
        json(
                call(
                        "PUT",
                        task,
                        ALL,
                        "{\"fireAt\":"
                                + fireAt
                                + ",\"zone\":\"UTC\",\"title\":\"Live!\",\"body\":\"b\"}"),
                202);
        JsonNode sub = json(call("PUT", task + "/subscribers/u7", ALL, null), 202);
        assertThat(sub.get("uid").asText()).isEqualTo("u7");
        json(call("DELETE", task + "/subscribers/u8", ALL, null), 202);
        json(call("POST", "/v1/reminders/u7/pull", ALL, "{\"taskIds\":[\"" + t + "\"]}"), 202);
        json(call("DELETE", task, ALL, null), 202);
        assertThat(lines(Topics.REMINDER_TASKS, "taskId", t))
                .extracting(l -> l.get("op").asText())
                .containsExactly("create", "update", "cancel");
        assertThat(lines(Topics.REMINDER_TASKS, "taskId", t).get(0).get("ts").asLong())
                .isEqualTo(created.get("ts").asLong());
        assertThat(lines(Topics.REMINDER_SUBSCRIPTIONS, "taskId", t))
                .extracting(l -> l.get("type").asText() + " " + l.get("uid").asText())
                .containsExactly("subscribe u7", "unsubscribe u8", "pull u7");
        assertError(call("POST", "/v1/reminders/u7/pull", ALL, "{\"taskIds\":[]}"), 400, "taskIds");
        // a key without the scope
        assertError(call("DELETE", task, PUSHER, null), 403, "Authorization");
    }

    @Test
    void aTaskAsTheRemindersStageMirroredIt() throws Exception {
        assertError(call("GET", "/v1/reminders/tasks/nobody-" + RUN, ALL, null), 404, "taskId");
        String t = "task-" + RUN;
        // later today (UTC): frozen, since a task freezes at the start of its day. Now + 1 h
        // would fall on tomorrow from 23:00 UTC on and be open (CI failed at 23:26 once).
        long now = System.currentTimeMillis();
        long midnight =
                java.time.Instant.ofEpochMilli(now)
                        .atZone(java.time.ZoneOffset.UTC)
                        .toLocalDate()
                        .plusDays(1)
                        .atStartOfDay(java.time.ZoneOffset.UTC)
                        .toInstant()
                        .toEpochMilli();
        long fireAt = now + Math.min(3_600_000L, (midnight - now) / 2);
        try (Table table = hbase.getTable(HBaseTables.reminders(NS))) {
            Put p = new Put(HBaseTables.reminderTaskRow(t));
            for (String[] kv :
                    new String[][] {
                        {"fireAt", Long.toString(fireAt)},
                        {"zone", "UTC"},
                        {"title", "Live"},
                        {"body", "now"},
                        {"status", "open"},
                        {"subscribers", "3"},
                        {"pulled", "1"}
                    }) {
                p.addColumn(HBaseTables.FAMILY, Bytes.toBytes(kv[0]), Bytes.toBytes(kv[1]));
            }
            table.put(p);
        }
        JsonNode a = json(call("GET", "/v1/reminders/tasks/" + t, ALL, null), 200);
        assertThat(a.get("state").asText()).isEqualTo("frozen");
        assertThat(a.get("subscribers").asLong()).isEqualTo(3);
        assertThat(a.get("pulled").asLong()).isEqualTo(1);
        assertThat(a.get("fireAt").asLong()).isEqualTo(fireAt);
        assertThat(a.get("title").asText()).isEqualTo("Live");
    }

    @Test
    void aPushesStatusFromTheReceiptsTables() throws Exception {
        String msgId = "st-" + RUN;
        assertError(call("GET", "/v1/push/" + msgId, ALL, null), 404, "msgId");
        assertError(call("GET", "/v1/push/" + msgId, PUSHER, null), 403, "Authorization");
        try (Table t = hbase.getTable(TableName.valueOf(NS, ReceiptTables.METRICS))) {
            for (String vendor : List.of("apns", "fcm")) {
                MetricRow m = new MetricRow();
                m.grain = MetricRow.MINUTE;
                m.msgId = msgId;
                m.start = 1767225600000L;
                m.msgType = "news";
                m.vendor = vendor;
                m.passed = 10;
                m.dropped = 2;
                m.drops.put("quiet_hours", 2L);
                m.sent = 9;
                m.delivered = 8;
                m.clicked = 1;
                m.failed = 1;
                t.put(ReceiptTables.put(m));
            }
        }
        JsonNode s = json(call("GET", "/v1/push/" + msgId, ALL, null), 200);
        assertThat(s.get("decided").asLong()).isEqualTo(24);
        assertThat(s.get("passed").asLong()).isEqualTo(20);
        assertThat(s.get("dropped").get("quiet_hours").asLong()).isEqualTo(4);
        assertThat(s.get("sent").asLong()).isEqualTo(18);
        assertThat(s.get("delivered").asLong()).isEqualTo(16);
        assertThat(s.get("clicked").asLong()).isEqualTo(2);
        assertThat(s.get("failed").asLong()).isEqualTo(2);
    }

    @Test
    void anIdempotencyKeyWritesOnceAcrossCallsServersAndRaces() throws Exception {
        String body =
                "{\"msgType\":\"news\",\"title\":\"T\",\"body\":\""
                        + RUN
                        + "-idem\",\"target\":{\"uids\":[\"u1\"]}}";
        String key = "order-" + RUN;
        HttpResponse<String> first = idempotent(PUSHER, key, body);
        JsonNode a = json(first, 202);
        JsonNode again = json(idempotent(PUSHER, key, body), 202);
        assertThat(again).isEqualTo(a);
        assertError(
                idempotent(PUSHER, key, body.replace("-idem", "-other")), 409, "Idempotency-Key");
        // another server sharing the HBase (a restart, or the next server behind the balancer)
        Connection other =
                ConnectionFactory.createConnection(
                        HBaseTables.clientConf(STACK.get().hbaseZkQuorum()));
        try (Server second = server(other, 1_000)) {
            int p = second.start("127.0.0.1", 0);
            HttpResponse<String> r =
                    HTTP.send(
                            request("POST", "/v1/push", PUSHER, body, "application/json", p)
                                    .header("Idempotency-Key", key)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(json(r, 202)).isEqualTo(a);
        }
        // the same key from another app key is another key
        JsonNode fromAll = json(idempotent(ALL, key, body), 202);
        assertThat(fromAll.get("msgId").asText()).isNotEqualTo(a.get("msgId").asText());

        // eight identical calls at the same moment: one line, one answer
        String raceKey = "race-" + RUN;
        String raceBody = body.replace("-idem", "-race");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(
                        CompletableFuture.supplyAsync(
                                () -> {
                                    try {
                                        return idempotent(PUSHER, raceKey, raceBody);
                                    } catch (Exception e) {
                                        throw new IllegalStateException(e);
                                    }
                                },
                                pool));
            }
            Set<String> answers = new HashSet<>();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                answers.add(json(c.get(), 202).toString());
            }
            assertThat(answers).hasSize(1);
        } finally {
            pool.shutdown();
        }
        assertThat(lines(Topics.PUSH_REQUESTS, "body", RUN + "-idem")).hasSize(2); // pusher, all
        assertThat(lines(Topics.PUSH_REQUESTS, "body", RUN + "-race")).hasSize(1);
        assertThat(lines(Topics.PUSH_REQUESTS, "body", RUN + "-other")).isEmpty();
        assertError(idempotent(PUSHER, "", body), 400, "Idempotency-Key");
    }

    @Test
    void pastTheRateA429WithRetryAfterAndNothingWritten() throws Exception {
        Connection other =
                ConnectionFactory.createConnection(
                        HBaseTables.clientConf(STACK.get().hbaseZkQuorum()));
        try (Server slow = server(other, 2)) {
            int p = slow.start("127.0.0.1", 0);
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> limited = null;
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> r =
                        HTTP.send(
                                request(
                                                "POST",
                                                "/v1/push",
                                                PUSHER,
                                                "{\"msgType\":\"news\",\"title\":\"T\",\"body\":\""
                                                        + RUN
                                                        + "-rate\",\"target\":{\"uids\":[\"u1\"]}}",
                                                "application/json",
                                                p)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                statuses.add(r.statusCode());
                if (r.statusCode() == 429) {
                    limited = r;
                }
            }
            assertThat(statuses).startsWith(202, 202).contains(429);
            assertThat(limited.headers().firstValue("Retry-After"))
                    .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
            long passed = statuses.stream().filter(s -> s == 202).count();
            assertThat(lines(Topics.PUSH_REQUESTS, "body", RUN + "-rate")).hasSize((int) passed);
        }
    }

    @Test
    void theOpenApiDocumentIsOpenAndListsEveryEndpoint() throws Exception {
        JsonNode doc = json(call("GET", "/v1/openapi.json", null, null), 200);
        assertThat(doc.get("openapi").asText()).isEqualTo("3.1.0");
        List<String> paths = new ArrayList<>();
        doc.get("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(paths)
                .contains(
                        "/v1/push",
                        "/v1/push/{msgId}",
                        "/v1/devices/{deviceId}",
                        "/v1/devices/{deviceId}/switch",
                        "/v1/reminders/tasks",
                        "/v1/reminders/tasks/{taskId}",
                        "/v1/reminders/tasks/{taskId}/subscribers/{uid}",
                        "/v1/reminders/{uid}",
                        "/v1/reminders/{uid}/pull",
                        "/v1/inbox/{uid}",
                        "/v1/inbox/{uid}/messages/{msgId}",
                        "/v1/inbox/{uid}/read");
    }

    // --- helpers

    static HttpResponse<String> idempotent(String secret, String key, String body)
            throws Exception {
        return HTTP.send(
                request("POST", "/v1/push", secret, body, "application/json", port)
                        .header("Idempotency-Key", key)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> call(String method, String path, String secret, String body)
            throws Exception {
        return send(request(method, path, secret, body, body == null ? null : "application/json"));
    }

    static HttpRequest.Builder request(
            String method, String path, String secret, String body, String type) {
        return request(method, path, secret, body, type, port);
    }

    static HttpRequest.Builder request(
            String method, String path, String secret, String body, String type, int p) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p + path))
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        if (secret != null) {
            b.header("Authorization", "Bearer " + secret);
        }
        if (type != null) {
            b.header("Content-Type", type);
        }
        return b;
    }

    static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r, int status) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type").orElse(""))
                .startsWith("application/json");
        return Json.MAPPER.readTree(r.body());
    }

    static void assertError(HttpResponse<String> r, int status, String field) throws Exception {
        JsonNode e = json(r, status);
        assertThat(e.get("error").asText()).isNotBlank().doesNotContain("Exception");
        assertThat(e.has("field")).isTrue();
        if (field == null) {
            assertThat(e.get("field").isNull()).as(r.body()).isTrue();
        } else {
            assertThat(e.get("field").asText()).as(r.body()).isEqualTo(field);
        }
    }

    /** The committed lines of {@code topic} whose {@code field} is {@code value}, in order. */
    static List<JsonNode> lines(String topic, String field, String value) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        // a commit returns before its markers reach every partition: wait for them
        for (String line : KafkaTopics.readAllAfterJobs(STACK.get().kafkaBootstrap(), topic)) {
            JsonNode n = Json.MAPPER.readTree(line);
            if (n.has(field) && n.get(field).asText().equals(value)) {
                out.add(n);
            }
        }
        return out;
    }
}
