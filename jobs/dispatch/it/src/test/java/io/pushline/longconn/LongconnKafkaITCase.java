package io.pushline.longconn;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.longconn.LongconnReceipt;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long-connection sends through the real stack (Kafka, HBase, Flink at parallelism 2): devices
 * bound with and without a fallback channel get a push from the dispatch job; the long-connection
 * job then sees acks, presence and silence, and the vendor topics, decisions and receipts (read
 * committed) hold each retry, fallback and give-up exactly once, also after the job is run again
 * from its last checkpoint.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LongconnKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final long T = 1_767_225_600_000L;
    static String kafka;
    static Map<String, Long> sentAt = new HashMap<>();
    static JobID firstRun;
    static final Duration WAIT = Duration.ofMinutes(2);
    @TempDir static Path files;

    @BeforeAll
    static void run() throws Exception {
        LocalStack stack = STACK.get();
        kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        KafkaTopics.produce(
                kafka,
                Topics.DEVICE_EVENTS,
                List.of(
                        bind("d-off", "{\"vendor\":\"huawei\",\"token\":\"hw-off\"}"),
                        bind("d-none", null),
                        bind("d-ack", "{\"vendor\":\"fcm\",\"token\":\"fcm-ack\"}"),
                        bind("d-old", "{\"vendor\":\"fcm\",\"token\":\"fcm-old\"}"),
                        bind("d-quiet", "{\"vendor\":\"fcm\",\"token\":\"fcm-quiet\"}"),
                        KafkaTopics.kv(
                                "d-apns",
                                "{\"ts\":"
                                        + T
                                        + ",\"type\":\"bind\",\"deviceId\":\"d-apns\",\"uid\":\"u\","
                                        + "\"vendor\":\"apns\",\"token\":\"apns-1\"}")));
        KafkaTopics.produce(
                kafka,
                Topics.PUSH_REQUESTS,
                List.<String[]>of(
                        KafkaTopics.kv(
                                "p1",
                                "{\"ts\":"
                                        + (T + 1_000)
                                        + ",\"type\":\"push\",\"msgId\":\"p1\",\"msgType\":\"news\","
                                        + "\"title\":\"Hello\",\"body\":\"B\",\"target\":{\"devices\":"
                                        + "[\"d-off\",\"d-none\",\"d-ack\",\"d-old\",\"d-quiet\","
                                        + "\"d-apns\"]}}")));
        Map<String, String> dispatch = new HashMap<>(stack.jobOptions());
        dispatch.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        dispatch.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        dispatch.put(DispatchOptions.MAX_PAST.key(), "0 s");
        dispatch.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-longconn-dispatch");
        runToTheEnd(env -> DispatchJob.start(env, Configuration.fromMap(dispatch)));

        sentAt.putAll(LongconnTopics.sentAt(kafka));
        assertThat(sentAt).containsOnlyKeys("d-off", "d-none", "d-ack", "d-old", "d-quiet");
        long s = sentAt.get("d-ack");
        KafkaTopics.produce(
                kafka,
                Topics.LONGCONN_PRESENCE,
                List.of(
                        presence(sentAt.get("d-old") - 1, "d-old", true, "6.9"),
                        presence(sentAt.get("d-off") + 500, "d-off", false, "7.2"),
                        presence(sentAt.get("d-none") + 500, "d-none", false, null),
                        KafkaTopics.kv("d-x", "{\"ts\":1,\"type\":\"presence\",\"deviceId\":7}")));
        KafkaTopics.produce(
                kafka,
                Topics.LONGCONN_ACKS,
                List.<String[]>of(
                        KafkaTopics.kv(
                                "d-ack",
                                "{\"ts\":"
                                        + (s + 1_500)
                                        + ",\"msgId\":\"p1\",\"deviceId\":\"d-ack\"}")));
        // 9 receipts: d-ack a retry and its ack, d-off and d-none a fallback each, d-quiet 4
        // retries and its give-up (the last of all)
        firstRun =
                runLongconnJob(
                        null,
                        () ->
                                KafkaTopics.readAll(kafka, Topics.RECEIPTS).size() >= 9
                                        && KafkaTopics.readAll(kafka, Topics.RECEIPTS).stream()
                                                .anyMatch(l -> l.contains("longconn_give_up")),
                        1);
    }

    /**
     * Runs the long-connection job with its checkpoints kept (restored from {@code from} if given)
     * until {@code done} holds and {@code checkpointsAfter} more checkpoints have completed, then
     * cancels it, as one stops a streaming job; returns its id.
     */
    static JobID runLongconnJob(Path from, BooleanSupplier done, int checkpointsAfter)
            throws Exception {
        Path rules = files.resolve("rules.yaml");
        Files.writeString(rules, "probeDelay: 1s\nprobeTries: 2\nstep: 1s\nmaxDelay: 3s\n");
        Map<String, String> opts = new HashMap<>(STACK.get().jobOptions());
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(LongconnOptions.RULES.key(), rules.toString());
        opts.put(LongconnOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-longconn");
        Configuration flink = Checkpoints.retained(STACK.get().flinkConfiguration(), checkpoints());
        if (from != null) {
            flink.setString("execution.state-recovery.path", from.toUri().toString());
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        JobClient job = LongconnJob.start(env, Configuration.fromMap(opts));
        Checkpoints.waitUntil(done, "the job's output", WAIT);
        Checkpoints.awaitMore(
                checkpoints(), job.getJobID(), checkpointsAfter, "checkpoints after that", WAIT);
        job.cancel().get(1, TimeUnit.MINUTES);
        return job.getJobID();
    }

    static Path checkpoints() {
        return files.resolve("checkpoints");
    }

    interface Start {
        org.apache.flink.core.execution.JobClient start(StreamExecutionEnvironment env)
                throws Exception;
    }

    static void runToTheEnd(Start job) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        STACK.get().flinkConfiguration());
        env.setParallelism(2);
        job.start(env).getJobExecutionResult().get(4, TimeUnit.MINUTES);
    }

    @Test
    void anOfflineDeviceGetsTheMessageOnItsVendorChannelExactlyOnce() {
        List<SendRecord> huawei = sends("huawei");
        assertThat(huawei).hasSize(1);
        SendRecord fb = huawei.get(0);
        assertThat(fb.deviceId).isEqualTo("d-off");
        assertThat(fb.msgId).isEqualTo("p1");
        assertThat(fb.token).isEqualTo("hw-off");
        assertThat(fb.title).isEqualTo("Hello");
        assertThat(fb.attempt).isEqualTo(1);
        assertThat(fb.fallback).isNull();
        assertThat(sends("fcm")).as("online devices are not fallen back").isEmpty();
    }

    @Test
    void retriesGoOutOnTheLongConnectionWithTheirAttempt() {
        Map<String, List<Integer>> attempts =
                sends("longconn").stream()
                        .collect(
                                Collectors.groupingBy(
                                        s -> s.deviceId,
                                        Collectors.mapping(
                                                s -> s.attempt == null ? 0 : s.attempt,
                                                Collectors.toList())));
        assertThat(attempts.get("d-quiet")).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(attempts.get("d-ack")).containsExactlyInAnyOrder(0, 1);
        assertThat(attempts.get("d-old")).containsExactly(0);
        assertThat(attempts.get("d-off")).containsExactly(0);
        assertThat(attempts.get("d-none")).containsExactly(0);
        assertThat(sends("longconn").stream().filter(s -> s.deviceId.equals("d-off")))
                .allSatisfy(s -> assertThat(s.fallback.vendor).isEqualTo("huawei"));
    }

    @Test
    void aDeviceWithoutAFallbackIsUndeliverableAndEverythingReachesTheReceipts() {
        List<Decision> undeliverable =
                KafkaTopics.readAll(kafka, Topics.DECISIONS).stream()
                        .map(l -> Json.read(l, Decision.class))
                        .filter(d -> "undeliverable".equals(d.reason))
                        .toList();
        assertThat(undeliverable).hasSize(1);
        assertThat(undeliverable.get(0).deviceId).isEqualTo("d-none");
        assertThat(undeliverable.get(0).code).isEqualTo(19);
        assertThat(undeliverable.get(0).msgType).isEqualTo("news");

        List<LongconnReceipt> receipts = receipts();
        Map<String, List<String>> byDevice =
                receipts.stream()
                        .collect(
                                Collectors.groupingBy(
                                        r -> r.deviceId,
                                        Collectors.mapping(
                                                r -> r.type + ":" + r.attempt,
                                                Collectors.toList())));
        assertThat(byDevice.get("d-ack")).containsExactly("longconn_retry:1", "longconn_acked:1");
        assertThat(byDevice.get("d-off")).containsExactly("longconn_fallback:1");
        assertThat(byDevice.get("d-none")).containsExactly("longconn_fallback:1");
        assertThat(byDevice.get("d-quiet"))
                .containsExactly(
                        "longconn_retry:1",
                        "longconn_retry:2",
                        "longconn_retry:3",
                        "longconn_retry:4",
                        "longconn_give_up:4");
        assertThat(byDevice).doesNotContainKey("d-old"); // an old client: untracked
        LongconnReceipt acked =
                receipts.stream().filter(r -> r.type.equals("longconn_acked")).findFirst().get();
        assertThat(acked.delayMs).isEqualTo(1_500L);
        assertThat(acked.uid).isEqualTo("u-d-ack");
        assertThat(
                        receipts.stream()
                                .filter(r -> r.type.equals("longconn_fallback"))
                                .map(r -> r.deviceId + "/" + r.fallbackVendor))
                .containsExactlyInAnyOrder("d-off/huawei", "d-none/null");

        List<DeadLetter> dead =
                KafkaTopics.deadLetters(kafka).stream()
                        .filter(d -> Topics.LONGCONN_PRESENCE.equals(d.source))
                        .toList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).reason).contains("'deviceId'");
    }

    @Test
    void theRegistryKeepsTheFallbackChannel() throws Exception {
        try (Connection c =
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(STACK.get().hbaseZkQuorum()));
                Table t =
                        c.getTable(
                                HBaseTables.devices(
                                        STACK.get()
                                                .jobOptions()
                                                .getOrDefault(
                                                        CommonOptions.HBASE_NAMESPACE.key(),
                                                        CommonOptions.HBASE_NAMESPACE
                                                                .defaultValue())))) {
            Result r = t.get(new Get(Bytes.toBytes("d-off")));
            assertThat(
                            Bytes.toString(
                                    r.getValue(
                                            HBaseTables.FAMILY, Bytes.toBytes("fallbackVendor"))))
                    .isEqualTo("huawei");
            assertThat(
                            Bytes.toString(
                                    r.getValue(HBaseTables.FAMILY, Bytes.toBytes("fallbackToken"))))
                    .isEqualTo("hw-off");
            Result none = t.get(new Get(Bytes.toBytes("d-none")));
            assertThat(
                            Bytes.toString(
                                    none.getValue(
                                            HBaseTables.FAMILY, Bytes.toBytes("fallbackVendor"))))
                    .isEmpty();
        }
    }

    @Test
    void theJobRestoredFromItsLastCheckpointSendsNothingTwice() throws Exception {
        int sends = KafkaTopics.readAll(kafka, Topics.vendorTopic("longconn")).size();
        int receipts = receipts().size();
        // a fresh run would start from the group's committed offsets, which Kafka's source commits
        // only best-effort: what carries a job over exactly once is its checkpoint. A new send
        // acked after the restore shows the job has read past everything before it (and event
        // time with it, so a timer restored twice would have fired).
        SendRecord late = LongconnTopics.send("p2", "u-d-late", "d-late", "conn-d-late", null);
        KafkaTopics.produce(
                kafka,
                Topics.vendorTopic("longconn"),
                List.<String[]>of(KafkaTopics.kv("d-late", Json.write(late))));
        long at = LongconnTopics.sentAt(kafka).get("d-late");
        KafkaTopics.produce(
                kafka,
                Topics.LONGCONN_ACKS,
                List.<String[]>of(
                        KafkaTopics.kv(
                                "d-late",
                                "{\"ts\":"
                                        + (at + 200)
                                        + ",\"msgId\":\"p2\",\"deviceId\":\"d-late\"}")));
        runLongconnJob(
                Checkpoints.latest(checkpoints(), firstRun).orElseThrow(),
                () ->
                        KafkaTopics.readAll(kafka, Topics.RECEIPTS).stream()
                                .anyMatch(l -> l.contains("\"d-late\"")),
                2);
        assertThat(KafkaTopics.readAllAfterJobs(kafka, Topics.vendorTopic("longconn")))
                .hasSize(sends + 1);
        assertThat(sends("huawei")).hasSize(1);
        assertThat(receipts())
                .hasSize(receipts + 1)
                .filteredOn(r -> r.deviceId.equals("d-late"))
                .extracting(r -> r.type)
                .containsExactly(LongconnReceipt.ACKED);
    }

    static List<SendRecord> sends(String vendor) {
        List<SendRecord> out = new ArrayList<>();
        for (String l : KafkaTopics.readAllAfterJobs(kafka, Topics.vendorTopic(vendor))) {
            out.add(Json.read(l, SendRecord.class));
        }
        return out;
    }

    static List<LongconnReceipt> receipts() {
        List<LongconnReceipt> out = new ArrayList<>();
        for (String l : KafkaTopics.readAllAfterJobs(kafka, Topics.RECEIPTS)) {
            out.add(Json.read(l, LongconnReceipt.class));
        }
        out.sort(java.util.Comparator.comparingLong(r -> r.ts));
        return out;
    }

    static String[] bind(String device, String fallback) {
        return KafkaTopics.kv(
                device,
                "{\"ts\":"
                        + T
                        + ",\"type\":\"bind\",\"deviceId\":\""
                        + device
                        + "\",\"uid\":\"u-"
                        + device
                        + "\",\"vendor\":\"longconn\",\"token\":\"conn-"
                        + device
                        + "\""
                        + (fallback == null ? "" : ",\"fallback\":" + fallback)
                        + "}");
    }

    static String[] presence(long ts, String device, boolean online, String version) {
        return KafkaTopics.kv(
                device,
                "{\"ts\":"
                        + ts
                        + ",\"type\":\"presence\",\"deviceId\":\""
                        + device
                        + "\",\"online\":"
                        + online
                        + (version == null ? "" : ",\"appVersion\":\"" + version + "\"")
                        + "}");
    }
}
