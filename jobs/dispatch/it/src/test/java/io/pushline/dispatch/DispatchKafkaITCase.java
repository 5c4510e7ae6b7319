package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.IdDictionary;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.HBaseRows;
import io.pushline.testkit.KafkaTopics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Device events and requests through the real embedded Kafka, Flink (RocksDB, parallelism 2) and
 * HBase: asserts the exact records of every vendor topic, of push.decisions and push.dlq, and the
 * registry rows in HBase.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DispatchKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final long T = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    static final String BAD_JSON = "{\"ts\": 1767225600000, \"type\": \"bind\", \"deviceId\": ";
    static final String NO_UID =
            "{\"ts\":1767225600500,\"type\":\"bind\",\"deviceId\":\"d9\",\"vendor\":\"fcm\",\"token\":\"t\"}";
    static final String UNKNOWN_TYPE =
            "{\"ts\":1767225600600,\"type\":\"rebind\",\"deviceId\":\"d1\"}";
    static final String NO_TITLE =
            "{\"ts\":1767225604000,\"type\":\"push\",\"msgId\":\"m9\",\"msgType\":\"news\",\"body\":\"b\",\"target\":{\"uids\":[\"u1\"]}}";

    static Map<String, List<String>> topics = new HashMap<>();
    static List<Map<String, String>> devicesRows;
    static List<String> uidIndexRows;
    static Map<String, Integer> dictionaryIds = new HashMap<>();

    @BeforeAll
    static void runDispatch() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);

        List<String[]> events = new ArrayList<>();
        events.add(kv("d1", bind(T, "d1", "u1", "huawei", "tok1", "Asia/Shanghai", null)));
        events.add(kv("d2", bind(T, "d2", "u1", "apns", "tok2", null, null)));
        events.add(kv("d3", bind(T, "d3", "u2", "fcm", "tok3", null, false)));
        events.add(kv("d4", bind(T, "d4", "u3", "xiaomi", "tok4", null, null)));
        events.add(kv("d5", bind(T, "d5", "u4", "longconn", "tok5", null, null)));
        events.add(kv("d9", BAD_JSON));
        events.add(kv("d9", NO_UID));
        events.add(kv("d1", UNKNOWN_TYPE));
        events.add(
                kv(
                        "d3",
                        "{\"ts\":"
                                + (T + 2000)
                                + ",\"type\":\"switch\",\"deviceId\":\"d3\",\"enabled\":true}"));
        events.add(kv("d4", "{\"ts\":" + (T + 5000) + ",\"type\":\"unbind\",\"deviceId\":\"d4\"}"));
        events.add(kv("d2", bind(T + 6000, "d2", "u5", "apns", "tok2b", null, null)));
        events.add(kv("d6", bind(T + 9000, "d6", "u6", "vivo", "tok6", null, null)));

        List<String[]> requests = new ArrayList<>();
        requests.add(
                kv(
                        "m1",
                        push(T + 1000, "m1", "{\"uids\":[\"u1\",\"u2\",\"u3\",\"u1\",\"u404\"]}")));
        requests.add(kv("m2", push(T + 3000, "m2", "{\"devices\":[\"d3\",\"d5\",\"d404\"]}")));
        requests.add(kv("m9", NO_TITLE));
        requests.add(kv("m3", push(T + 7000, "m3", "{\"uids\":[\"u1\",\"u3\",\"u5\"]}")));
        requests.add(kv("m4", push(T + 8000, "m4", "{\"audience\":\"sports AND beijing\"}")));
        // Same millisecond as d6's bind: device events come first, so d6 is found.
        requests.add(kv("m5", push(T + 9000, "m5", "{\"uids\":[\"u6\"]}")));

        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, events);
        KafkaTopics.produce(kafka, Topics.PUSH_REQUESTS, requests);

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-dispatch");

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        job.getJobExecutionResult().get(3, TimeUnit.MINUTES);

        for (String topic : Topics.dispatchTopics()) {
            topics.put(topic, KafkaTopics.readAllAfterJobs(kafka, topic));
        }
        devicesRows = scanDevices(stack);
        uidIndexRows = scanUidIndex(stack);
        try (Connection c = stack.hbase().newConnection();
                IdDictionary dict = new IdDictionary(c, "pushline", 0)) {
            for (String uid : List.of("u1", "u2", "u3", "u4", "u5", "u6", "u404")) {
                dictionaryIds.put(uid, dict.idOf(uid));
            }
        }
    }

    @Test
    void eachVendorTopicHoldsExactlyItsSends() {
        Map<String, List<SendRecord>> expected = new TreeMap<>();
        for (Vendor v : Vendor.values()) {
            expected.put(v.topic(), new ArrayList<>());
        }
        expected.get("push.vendor.huawei").add(send("m1", "u1", "d1", "huawei", "tok1", 1000));
        expected.get("push.vendor.huawei").add(send("m3", "u1", "d1", "huawei", "tok1", 7000));
        expected.get("push.vendor.apns").add(send("m1", "u1", "d2", "apns", "tok2", 1000));
        expected.get("push.vendor.apns").add(send("m3", "u5", "d2", "apns", "tok2b", 7000));
        expected.get("push.vendor.xiaomi").add(send("m1", "u3", "d4", "xiaomi", "tok4", 1000));
        expected.get("push.vendor.fcm").add(send("m2", "u2", "d3", "fcm", "tok3", 3000));
        expected.get("push.vendor.longconn").add(send("m2", "u4", "d5", "longconn", "tok5", 3000));
        expected.get("push.vendor.vivo").add(send("m5", "u6", "d6", "vivo", "tok6", 9000));

        for (Map.Entry<String, List<SendRecord>> e : expected.entrySet()) {
            List<SendRecord> actual =
                    topics.get(e.getKey()).stream()
                            .map(s -> Json.read(s, SendRecord.class))
                            .collect(Collectors.toList());
            assertThat(actual).as(e.getKey()).containsExactlyInAnyOrderElementsOf(e.getValue());
        }
    }

    @Test
    void everyRequestAndDeviceHasOneDecision() {
        List<Decision> actual =
                topics.get(Topics.DECISIONS).stream()
                        .map(s -> Json.read(s, Decision.class))
                        .collect(Collectors.toList());
        assertThat(actual)
                .containsExactlyInAnyOrder(
                        decision("m1", "u1", "d1", "huawei", null, 0, 1000),
                        decision("m1", "u1", "d2", "apns", null, 0, 1000),
                        decision("m1", "u2", "d3", null, "push_disabled", 11, 1000),
                        decision("m1", "u3", "d4", "xiaomi", null, 0, 1000),
                        decision("m1", "u404", null, null, "no_device", 10, 1000),
                        decision("m2", "u2", "d3", "fcm", null, 0, 3000),
                        decision("m2", "u4", "d5", "longconn", null, 0, 3000),
                        decision("m2", null, "d404", null, "no_device", 10, 3000),
                        decision("m3", "u1", "d1", "huawei", null, 0, 7000),
                        decision("m3", "u3", null, null, "no_device", 10, 7000),
                        decision("m3", "u5", "d2", "apns", null, 0, 7000),
                        decision("m5", "u6", "d6", "vivo", null, 0, 9000));
    }

    @Test
    void badRecordsLandInTheDeadLetterTopicWithAReason() {
        Map<String, String> reasonByRaw = new HashMap<>();
        for (String s : topics.get(Topics.DLQ)) {
            DeadLetter d = Json.read(s, DeadLetter.class);
            assertThat(d.position).isNotNull();
            reasonByRaw.put(d.raw.startsWith("{\"ts\":" + (T + 8000)) ? "m4" : d.raw, d.reason);
        }
        assertThat(reasonByRaw)
                .hasSize(5)
                .containsEntry(DeadLetter.mask(NO_UID), "missing field 'uid'")
                .containsEntry(UNKNOWN_TYPE, "unknown type 'rebind'")
                .containsEntry(DeadLetter.mask(NO_TITLE), "missing field 'title'");
        // the bind's token and the push's body are masked
        assertThat(topics.get(Topics.DLQ)).noneMatch(s -> s.contains("\\\"t\\\""));
        assertThat(topics.get(Topics.DLQ)).noneMatch(s -> s.contains("\\\"b\\\""));
        assertThat(reasonByRaw.get(BAD_JSON)).startsWith("not valid JSON");
        assertThat(reasonByRaw.get("m4")).contains("audience");
    }

    @Test
    void registryIsMirroredToHBase() {
        assertThat(devicesRows)
                .containsExactlyInAnyOrder(
                        row("d1", "u1", "huawei", "tok1", "Asia/Shanghai", "true", T, T),
                        row("d2", "u5", "apns", "tok2b", "", "true", T + 6000, T + 6000),
                        row("d3", "u2", "fcm", "tok3", "", "true", T, T + 2000),
                        row("d5", "u4", "longconn", "tok5", "", "true", T, T),
                        row("d6", "u6", "vivo", "tok6", "", "true", T + 9000, T + 9000));
        assertThat(uidIndexRows)
                .containsExactlyInAnyOrder("u1/d1", "u5/d2", "u2/d3", "u4/d5", "u6/d6");
    }

    @Test
    void everyUidThatBoundADeviceGotADictionaryIdOnFirstSight() {
        List<Integer> bound = new ArrayList<>();
        for (String uid : List.of("u1", "u2", "u3", "u4", "u5", "u6")) {
            assertThat(dictionaryIds.get(uid)).as(uid).isNotNull();
            bound.add(dictionaryIds.get(uid));
        }
        assertThat(bound).doesNotHaveDuplicates();
        // Only targeted, never bound: not a user the dictionary knows.
        assertThat(dictionaryIds.get("u404")).isNull();
    }

    static String[] kv(String key, String value) {
        return new String[] {key, value};
    }

    static String bind(
            long ts,
            String device,
            String uid,
            String vendor,
            String token,
            String tz,
            Boolean enabled) {
        return "{\"ts\":"
                + ts
                + ",\"type\":\"bind\",\"deviceId\":\""
                + device
                + "\",\"uid\":\""
                + uid
                + "\",\"vendor\":\""
                + vendor
                + "\",\"token\":\""
                + token
                + "\""
                + (tz == null ? "" : ",\"tz\":\"" + tz + "\"")
                + (enabled == null ? "" : ",\"pushEnabled\":" + enabled)
                + "}";
    }

    static String push(long ts, String msgId, String target) {
        return "{\"ts\":"
                + ts
                + ",\"type\":\"push\",\"msgId\":\""
                + msgId
                + "\",\"msgType\":\"news\",\"title\":\"Title "
                + msgId
                + "\",\"body\":\"Body "
                + msgId
                + "\",\"target\":"
                + target
                + "}";
    }

    static SendRecord send(
            String msgId, String uid, String device, String vendor, String token, long dt) {
        SendRecord s = new SendRecord();
        s.msgId = msgId;
        s.msgType = "news";
        s.level = 1;
        s.uid = uid;
        s.deviceId = device;
        s.vendor = vendor;
        s.token = token;
        s.title = "Title " + msgId;
        s.body = "Body " + msgId;
        s.ts = T + dt;
        return s;
    }

    static Decision decision(
            String msgId,
            String uid,
            String device,
            String vendor,
            String reason,
            int code,
            long dt) {
        Decision d = new Decision();
        d.msgId = msgId;
        d.uid = uid;
        d.deviceId = device;
        d.vendor = vendor;
        d.decision = reason == null ? Decision.PASS : Decision.DROP;
        d.reason = reason;
        d.code = code;
        d.msgType = "news";
        d.ts = T + dt;
        return d;
    }

    static Map<String, String> row(
            String device,
            String uid,
            String vendor,
            String token,
            String tz,
            String enabled,
            long boundTs,
            long updatedTs) {
        Map<String, String> m = new TreeMap<>();
        m.put("row", device);
        m.put("uid", uid);
        m.put("vendor", vendor);
        m.put("token", token);
        m.put("tz", tz);
        m.put("enabled", enabled);
        m.put("boundTs", String.valueOf(boundTs));
        m.put("updatedTs", String.valueOf(updatedTs));
        // no fallback channel: empty, so that a re-bind without one clears an earlier one
        m.put("fallbackVendor", "");
        m.put("fallbackToken", "");
        return m;
    }

    static List<Map<String, String>> scanDevices(LocalStack stack) throws Exception {
        return HBaseRows.scan(stack.hbase().connection(), HBaseTables.devices("pushline"));
    }

    static List<String> scanUidIndex(LocalStack stack) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Table t = stack.hbase().connection().getTable(HBaseTables.devicesByUid("pushline"));
                ResultScanner s = t.getScanner(new Scan())) {
            for (Result r : s) {
                rows.add(Bytes.toString(r.getRow()).replace('\u0000', '/'));
            }
        }
        return rows;
    }
}
