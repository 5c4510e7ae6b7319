package io.pushline.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.emulators.Behaviour;
import io.pushline.emulators.Counts;
import io.pushline.emulators.Emulators;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.VendorFeedback;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway job on the real stack (Kafka, parallelism 2) against the vendor emulators over HTTP:
 * every send of the vendor topics gets exactly one receipt on push.receipts (read committed), an
 * emulator's invalid tokens come back as token_invalid carrying the token, the emulators accepted
 * what the receipts say was sent, and a vendor's quota becomes a throttle report for the pacer.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GatewayKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final Duration WAIT = Duration.ofMinutes(2);
    static final List<Vendor> VENDORS =
            List.of(
                    Vendor.FCM,
                    Vendor.HUAWEI,
                    Vendor.HONOR,
                    Vendor.XIAOMI,
                    Vendor.OPPO,
                    Vendor.VIVO);

    @TempDir Path files;

    @Test
    void everySendIsAnsweredOnceAndInvalidTokensComeBack() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        int perVendor = 150;
        try (Emulators emulators = Emulators.start(files, Behaviour.PLAIN.withLatency(5))) {
            Map<String, Integer> expected = new HashMap<>();
            for (Vendor v : VENDORS) {
                List<String[]> records = new ArrayList<>();
                for (int i = 0; i < perVendor; i++) {
                    // three messages per vendor, so the multi-token vendors batch; every tenth
                    // device's token is one the vendor no longer knows
                    SendRecord s =
                            send(
                                    v,
                                    "m" + (i % 3),
                                    i,
                                    i % 10 == 0 ? "invalid-" + i : "tok-" + v.wireName() + "-" + i);
                    records.add(KafkaTopics.kv(s.deviceId, Json.write(s)));
                    expected.merge(i % 10 == 0 ? "token_invalid" : "sent", 1, Integer::sum);
                }
                records.add(
                        KafkaTopics.kv("bad", "{\"msgId\":\"x\",\"deviceId\":\"d\"}")); // no token
                KafkaTopics.produce(kafka, v.topic(), records);
            }
            int total = perVendor * VENDORS.size();
            // a linger longer than a slow machine's gap between records of one message, so the
            // batch count below depends on batching, not on the machine's speed (5 ms gave 40
            // calls on a loaded CI machine); the 1 s checkpoint barrier still sends what waits
            JobClient job = start(stack, emulators, Map.of(GatewayOptions.LINGER.key(), "500 ms"));
            try {
                io.pushline.testkit.Checkpoints.waitUntil(
                        () -> KafkaTopics.readAll(kafka, Topics.RECEIPTS).size() >= total,
                        "a receipt for every send",
                        WAIT);
            } finally {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
            List<String> receipts = KafkaTopics.readAllAfterJobs(kafka, Topics.RECEIPTS);
            assertThat(receipts).hasSize(total);
            Map<String, Integer> byType = new HashMap<>();
            Map<String, Integer> perSend = new HashMap<>();
            for (String r : receipts) {
                var n = Json.MAPPER.readTree(r);
                byType.merge(n.path("type").asText(), 1, Integer::sum);
                perSend.merge(
                        n.path("vendor").asText()
                                + "/"
                                + n.path("msgId").asText()
                                + "/"
                                + n.path("deviceId").asText(),
                        1,
                        Integer::sum);
                if (n.path("type").asText().equals("token_invalid")) {
                    assertThat(n.path("token").asText()).startsWith("invalid-");
                } else {
                    assertThat(n.has("token")).as("only token_invalid carries the token").isFalse();
                }
            }
            assertThat(byType).isEqualTo(expected);
            assertThat(perSend).hasSize(total).allSatisfy((k, c) -> assertThat(c).isEqualTo(1));
            for (Vendor v : VENDORS) {
                Counts counts = emulators.counts(v);
                assertThat(counts.accepted.get())
                        .as(v + " accepted")
                        .isEqualTo(perVendor - perVendor / 10);
                assertThat(counts.unauthorized.get()).as(v + " unauthorized").isZero();
            }
            // the multi-token vendors took a campaign's devices in a few calls
            assertThat(emulators.emulator(Vendor.HUAWEI).counts.calls.get())
                    .isLessThan(perVendor / 5);
            assertThat(KafkaTopics.deadLetters(kafka))
                    .hasSize(VENDORS.size())
                    .allSatisfy(d -> assertThat(d.reason).contains("token"));
        }
    }

    @Test
    void aVendorsQuotaBecomesAThrottleForThePacer() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        try (Emulators emulators = Emulators.start(files, Behaviour.PLAIN)) {
            emulators.emulator(Vendor.FCM).behave(Behaviour.PLAIN.withQuota(20));
            List<String[]> records = new ArrayList<>();
            int sends = 100;
            for (int i = 0; i < sends; i++) {
                SendRecord s = send(Vendor.FCM, "q" + i, i, "tok-q-" + i);
                records.add(KafkaTopics.kv(s.deviceId, Json.write(s)));
            }
            KafkaTopics.produce(kafka, Vendor.FCM.topic(), records);
            JobClient job = start(stack, emulators, Map.of(GatewayOptions.RETRIES.key(), "4"));
            try {
                io.pushline.testkit.Checkpoints.waitUntil(
                        () -> KafkaTopics.readAll(kafka, Topics.RECEIPTS).size() >= sends,
                        "a receipt for every send",
                        WAIT);
            } finally {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
            List<VendorFeedback> feedback = new ArrayList<>();
            for (String f : KafkaTopics.readAllAfterJobs(kafka, Topics.VENDOR_FEEDBACK)) {
                feedback.add(Json.read(f, VendorFeedback.class));
            }
            assertThat(feedback).isNotEmpty();
            assertThat(feedback.get(0).vendor).isEqualTo("fcm");
            assertThat(feedback.get(0).status).isEqualTo(VendorFeedback.THROTTLED);
            assertThat(feedback.get(0).retryAfterMs).isEqualTo(1_000L);
            assertThat(feedback).extracting(f -> f.status).contains(VendorFeedback.RECOVERED);
            // throttled sends waited and were tried again; what the quota never let through
            // is a failed receipt with the vendor's code; one receipt per send either way
            long accepted = emulators.counts(Vendor.FCM).accepted.get();
            assertThat(emulators.counts(Vendor.FCM).throttled.get()).isPositive();
            assertThat(accepted).isGreaterThan(20);
            Map<String, Integer> byType = new HashMap<>();
            for (String r : KafkaTopics.readAllAfterJobs(kafka, Topics.RECEIPTS)) {
                var n = Json.MAPPER.readTree(r);
                String type = n.path("type").asText();
                byType.merge(type, 1, Integer::sum);
                if (type.equals("failed")) {
                    assertThat(n.path("code").asText()).isEqualTo("QUOTA_EXCEEDED");
                }
            }
            assertThat(byType.get("sent")).isEqualTo((int) accepted);
            assertThat(byType.getOrDefault("failed", 0)).isEqualTo(sends - (int) accepted);
        }
    }

    /**
     * Sends answered after the checkpoint a job restores from: with the answer log they are
     * answered from it (no second call to the vendor, each still one committed receipt); without it
     * every one is sent again.
     */
    @Test
    void aRestoreAnswersFromTheLogWhatTheVendorAnsweredSinceTheCheckpoint() throws Exception {
        assertThat(resendsAfterRestore(true)).isZero();
        assertThat(resendsAfterRestore(false)).isEqualTo(RESTORE_SENDS);
    }

    static final int RESTORE_SENDS = 120;

    private long resendsAfterRestore(boolean log) throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        try (Emulators emulators =
                Emulators.start(files.resolve("restore-" + log), Behaviour.PLAIN)) {
            Map<String, String> extra =
                    Map.of(GatewayOptions.ANSWERED_LOG.key(), Boolean.toString(log));
            Configuration rare = stack.flinkConfiguration();
            rare.setString("execution.checkpointing.interval", "1 h");
            JobClient first = start(stack, emulators, extra, rare);
            String savepoint;
            try {
                // the checkpoint before any send: everything after it is answered, not committed
                savepoint = savepoint(first, files.resolve("savepoints-" + log));
                List<String[]> records = new ArrayList<>();
                for (int i = 0; i < RESTORE_SENDS; i++) {
                    SendRecord s = send(Vendor.FCM, "r" + i, i, "tok-r-" + i);
                    records.add(KafkaTopics.kv(s.deviceId, Json.write(s)));
                }
                KafkaTopics.produce(kafka, Vendor.FCM.topic(), records);
                io.pushline.testkit.Checkpoints.waitUntil(
                        () -> emulators.counts(Vendor.FCM).accepted.get() >= RESTORE_SENDS,
                        "the vendor took every send",
                        WAIT);
                if (log) {
                    io.pushline.testkit.Checkpoints.waitUntil(
                            () -> loggedAnswers(kafka) >= RESTORE_SENDS,
                            "every answer logged",
                            WAIT);
                }
            } finally {
                first.cancel().get(1, TimeUnit.MINUTES);
            }
            assertThat(KafkaTopics.readAll(kafka, Topics.RECEIPTS))
                    .as("no checkpoint after the savepoint: nothing committed")
                    .isEmpty();
            Configuration restore = stack.flinkConfiguration();
            restore.setString("execution.state-recovery.path", savepoint);
            JobClient second = start(stack, emulators, extra, restore);
            try {
                io.pushline.testkit.Checkpoints.waitUntil(
                        () -> KafkaTopics.readAll(kafka, Topics.RECEIPTS).size() >= RESTORE_SENDS,
                        "a receipt for every send after the restore",
                        WAIT);
            } finally {
                second.cancel().get(1, TimeUnit.MINUTES);
            }
            List<String> receipts = KafkaTopics.readAllAfterJobs(kafka, Topics.RECEIPTS);
            assertThat(receipts).hasSize(RESTORE_SENDS);
            List<String> devices = new ArrayList<>();
            for (String r : receipts) {
                devices.add(Json.MAPPER.readTree(r).path("deviceId").asText());
            }
            assertThat(devices).doesNotHaveDuplicates();
            return emulators.counts(Vendor.FCM).resends.get();
        }
    }

    /** A savepoint once the job's tasks run (before, the JobManager refuses it). */
    private static String savepoint(JobClient job, Path dir) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT.toMillis();
        while (true) {
            try {
                return job.triggerSavepoint(
                                dir.toUri().toString(),
                                org.apache.flink.core.execution.SavepointFormatType.CANONICAL)
                        .get(1, TimeUnit.MINUTES);
            } catch (java.util.concurrent.ExecutionException notYet) {
                if (System.currentTimeMillis() > deadline) {
                    throw notYet;
                }
                Thread.sleep(200);
            }
        }
    }

    private static long loggedAnswers(String kafka) {
        return KafkaTopics.readAll(kafka, Topics.GATEWAY_ANSWERED).stream()
                .mapToLong(v -> v.split("\n").length)
                .sum();
    }

    static JobClient start(LocalStack stack, Emulators emulators, Map<String, String> extra)
            throws Exception {
        return start(stack, emulators, extra, stack.flinkConfiguration());
    }

    static JobClient start(
            LocalStack stack, Emulators emulators, Map<String, String> extra, Configuration flink)
            throws Exception {
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.putAll(emulators.gatewayOptions());
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(GatewayOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-gateway-" + System.nanoTime());
        opts.putAll(extra);
        List<String> args = new ArrayList<>();
        opts.forEach(
                (k, v) -> {
                    args.add("--" + k);
                    args.add(v);
                });
        // through the command line's parser, so every key the emulators give is a real option
        Configuration options =
                OptionsParser.parse(args.toArray(new String[0]), GatewayOptions.accepted());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        return GatewayJob.start(env, options);
    }

    static SendRecord send(Vendor v, String msgId, int i, String token) {
        SendRecord s = new SendRecord();
        s.msgId = msgId;
        s.msgType = "promo";
        s.level = 2;
        s.uid = "u-" + i;
        s.deviceId = v.wireName() + "-dev-" + i;
        s.vendor = v.wireName();
        s.token = token;
        s.title = "Hello";
        s.body = "World";
        s.ts = System.currentTimeMillis();
        return s;
    }
}
