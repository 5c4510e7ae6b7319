package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The running dispatch job (real Kafka, Flink with RocksDB at parallelism 2) takes new rules from
 * push.rules without a restart: a bad version is dead-lettered and the old rules stay, a good one
 * applies to the pushes after it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GateRulesKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final Duration PATIENCE = Duration.ofSeconds(90);

    @TempDir Path dir;

    @Test
    void rulesChangeWhileTheJobRuns() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        Path rules = dir.resolve("rules.yaml");
        Files.writeString(rules, "minInterval: {period: 1h}\n");

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.GROUP_ID.key(), "it-rules");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-rules");
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "1 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.MAX_OUT_OF_ORDERNESS.key(), "500 ms");
        opts.put(DispatchOptions.GATE_RULES.key(), rules.toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        try {
            long t0 = System.currentTimeMillis();
            produce(
                    kafka,
                    Topics.DEVICE_EVENTS,
                    "d1",
                    "{\"ts\":"
                            + t0
                            + ",\"type\":\"bind\",\"deviceId\":\"d1\",\"uid\":\"u1\",\"vendor\":\"oppo\",\"token\":\"t\"}");
            push(kafka, "m1", t0 + 1);
            push(kafka, "m2", t0 + 2);
            assertThat(reasonOf(kafka, "m1")).isEqualTo("PASS");
            assertThat(reasonOf(kafka, "m2")).isEqualTo("min_interval");

            produce(kafka, Topics.RULES, null, "minInterval: {period: soon}");
            DeadLetter rejected =
                    await(
                            kafka,
                            Topics.DLQ,
                            s ->
                                    Optional.of(Json.read(s, DeadLetter.class))
                                            .filter(d -> d.source.equals("push.rules")));
            assertThat(rejected.reason)
                    .isEqualTo(
                            "rules rejected: minInterval.period: bad duration 'soon' (an integer with s, m, h or d, as 30m)");
            push(kafka, "m3", System.currentTimeMillis());
            assertThat(reasonOf(kafka, "m3")).as("old rules stay").isEqualTo("min_interval");

            produce(kafka, Topics.RULES, null, "{\"minInterval\": {\"period\": \"1s\"}}");
            // The new version applies from the next event on: some push after it passes.
            String passed = null;
            for (int i = 4; i < 20 && passed == null; i++) {
                push(kafka, "m" + i, System.currentTimeMillis());
                if (reasonOf(kafka, "m" + i).equals("PASS")) {
                    passed = "m" + i;
                }
            }
            assertThat(passed).as("a push passes under the new rules").isNotNull();
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void push(String kafka, String msgId, long ts) throws Exception {
        produce(
                kafka,
                Topics.PUSH_REQUESTS,
                msgId,
                "{\"ts\":"
                        + ts
                        + ",\"type\":\"push\",\"msgId\":\""
                        + msgId
                        + "\",\"msgType\":\"news\",\"title\":\"T "
                        + msgId
                        + "\",\"body\":\"B\",\"target\":{\"devices\":[\"d1\"]}}");
    }

    private static void produce(String kafka, String topic, String key, String value)
            throws Exception {
        KafkaTopics.produce(kafka, topic, List.<String[]>of(new String[] {key, value}));
    }

    /** The decision for msgId once it is committed: "PASS" or the drop reason. */
    private static String reasonOf(String kafka, String msgId) {
        return await(
                kafka,
                Topics.DECISIONS,
                s ->
                        Optional.of(Json.read(s, Decision.class))
                                .filter(d -> d.msgId.equals(msgId))
                                .map(d -> d.isPass() ? "PASS" : d.reason));
    }

    /** Reads the topic until a record maps to a value; fails after {@link #PATIENCE}. */
    private static <T> T await(String kafka, String topic, Function<String, Optional<T>> match) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            for (String s : KafkaTopics.readAll(kafka, topic)) {
                Optional<T> hit = match.apply(s);
                if (hit.isPresent()) {
                    return hit.get();
                }
            }
            KafkaTopics.waitForMore(kafka, topic, Duration.ofMillis(500));
        }
        throw new AssertionError("nothing matching on " + topic + " within " + PATIENCE);
    }
}
