package io.pushline.longconn;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Fallback;
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
import java.util.TreeMap;
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
 * The long-connection job on the real stack (Kafka, RocksDB, production checkpoint settings,
 * parallelism 2), cancelled while retries are under way and restored from its last checkpoint:
 * every retry, fallback and give-up is on the topics exactly once (read committed), none lost and
 * none repeated, although the tracker keeps device state in a cache between checkpoints.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LongconnRestoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final Duration WAIT = Duration.ofMinutes(2);
    static final int DEVICES = 300;
    static final String LONGCONN = Topics.vendorTopic("longconn");

    @TempDir Path files;

    @Test
    void aJobRestoredMidRetriesSendsEachRetryAndFallbackOnce() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        // retries at +2 s, +4 s, +8 s, +14 s; the fifth would wait 8 s > 6 s: give up at +22 s
        Path rules = files.resolve("rules.yaml");
        Files.writeString(rules, "probeDelay: 2s\nprobeTries: 2\nstep: 2s\nmaxDelay: 6s\n");
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(LongconnOptions.RULES.key(), rules.toString());
        opts.put(LongconnOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-longconn-restore");
        Path checkpoints = files.resolve("checkpoints");
        Configuration flink = Checkpoints.retained(stack.flinkConfiguration(), checkpoints);

        int silent = DEVICES / 3;
        int offline = DEVICES / 3;
        JobClient first = start(flink, opts);
        // The input is made once the job runs and has checkpointed: its retries come 2 to 22 s
        // after the sends, so sends made before a start that takes long (a loaded machine) would
        // all be due at once when it begins, and the job would be through them before any cancel.
        Checkpoints.awaitMore(checkpoints, first.getJobID(), 1, "a first checkpoint", WAIT);
        // devices i % 3: 0 acks at once, 1 stays silent (retries, then a give-up), 2 goes offline
        // after the first retry (a fallback on its vendor channel)
        List<String[]> sends = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            sends.add(KafkaTopics.kv(device(i), Json.write(send(i))));
        }
        KafkaTopics.produce(kafka, LONGCONN, sends);
        Map<String, Long> sentAt = LongconnTopics.sentAt(kafka);
        assertThat(sentAt).hasSize(DEVICES);
        List<String[]> acks = new ArrayList<>();
        List<String[]> presence = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            long s = sentAt.get(device(i));
            if (i % 3 == 0) {
                acks.add(
                        KafkaTopics.kv(
                                device(i),
                                String.format(
                                        "{\"ts\":%d,\"msgId\":\"m%d\",\"deviceId\":\"%s\"}",
                                        s + 500, i, device(i))));
            } else if (i % 3 == 2) {
                presence.add(
                        KafkaTopics.kv(
                                device(i),
                                String.format(
                                        "{\"ts\":%d,\"type\":\"presence\",\"deviceId\":\"%s\","
                                                + "\"online\":false,\"appVersion\":\"7.2\"}",
                                        s + 3_000, device(i))));
            }
        }
        KafkaTopics.produce(kafka, Topics.LONGCONN_ACKS, acks);
        KafkaTopics.produce(kafka, Topics.LONGCONN_PRESENCE, presence);

        // some retries of the silent devices made, not all: cancel after the next checkpoint
        Checkpoints.waitUntil(
                () -> retries(KafkaTopics.readAll(kafka, LONGCONN)).size() >= silent,
                "the first retries committed",
                WAIT);
        Checkpoints.awaitOneTriggeredAfterNow(
                checkpoints, first.getJobID(), "a checkpoint after that", WAIT);
        first.cancel().get(1, TimeUnit.MINUTES);
        int beforeCancel = retries(KafkaTopics.readAllAfterJobs(kafka, LONGCONN)).size();
        assertThat(beforeCancel).as("cancelled while retrying").isLessThan(silent * 4 + offline);

        Configuration restored = new Configuration(flink);
        restored.setString(
                "execution.state-recovery.path",
                Checkpoints.latest(checkpoints, first.getJobID()).orElseThrow().toUri().toString());
        JobClient second = start(restored, opts);
        Checkpoints.waitUntil(() -> giveUps(kafka) >= silent, "every silent device given up", WAIT);
        Checkpoints.awaitMore(checkpoints, second.getJobID(), 2, "two more checkpoints", WAIT);
        second.cancel().get(1, TimeUnit.MINUTES);

        TreeMap<String, Integer> perAttempt = new TreeMap<>();
        for (SendRecord r : retries(KafkaTopics.readAllAfterJobs(kafka, LONGCONN))) {
            perAttempt.merge(r.msgId + "/" + r.attempt, 1, Integer::sum);
        }
        Map<String, Integer> expected = new TreeMap<>();
        for (int i = 0; i < DEVICES; i++) {
            if (i % 3 == 1) {
                for (int k = 1; k <= 4; k++) {
                    expected.put("m" + i + "/" + k, 1);
                }
            } else if (i % 3 == 2) {
                expected.put("m" + i + "/1", 1);
            }
        }
        assertThat(perAttempt).isEqualTo(expected);
        List<String> fallbacks = new ArrayList<>();
        for (String l : KafkaTopics.readAllAfterJobs(kafka, Topics.vendorTopic("huawei"))) {
            SendRecord r = Json.read(l, SendRecord.class);
            fallbacks.add(r.msgId + "/" + r.token + "/" + r.attempt);
        }
        List<String> expectedFallbacks = new ArrayList<>();
        for (int i = 2; i < DEVICES; i += 3) {
            expectedFallbacks.add("m" + i + "/hw-" + i + "/2");
        }
        assertThat(fallbacks).containsExactlyInAnyOrderElementsOf(expectedFallbacks);
        Map<String, Integer> receipts = new TreeMap<>();
        for (String l : KafkaTopics.readAllAfterJobs(kafka, Topics.RECEIPTS)) {
            receipts.merge(Json.read(l, LongconnReceipt.class).type, 1, Integer::sum);
        }
        assertThat(receipts)
                .containsEntry(LongconnReceipt.ACKED, DEVICES / 3)
                .containsEntry(LongconnReceipt.RETRY, silent * 4 + offline)
                .containsEntry(LongconnReceipt.FALLBACK, offline)
                .containsEntry(LongconnReceipt.GIVE_UP, silent);
    }

    private static JobClient start(Configuration flink, Map<String, String> opts) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        return LongconnJob.start(env, Configuration.fromMap(opts));
    }

    private static String device(int i) {
        return "lc-" + i;
    }

    private static SendRecord send(int i) {
        return LongconnTopics.send(
                "m" + i, "u-" + i, device(i), "conn-" + i, Fallback.of("huawei", "hw-" + i));
    }

    /** The retries among the records of the long connection's topic. */
    private static List<SendRecord> retries(List<String> records) {
        List<SendRecord> out = new ArrayList<>();
        for (String l : records) {
            SendRecord r = Json.read(l, SendRecord.class);
            if (r.attempt != null) {
                out.add(r);
            }
        }
        return out;
    }

    private static long giveUps(String kafka) {
        return KafkaTopics.readAll(kafka, Topics.RECEIPTS).stream()
                .filter(l -> l.contains("\"longconn_give_up\""))
                .count();
    }
}
