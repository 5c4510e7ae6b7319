package io.pushline.dispatch;

import static io.pushline.dispatch.DispatchKafkaITCase.bind;
import static io.pushline.dispatch.DispatchKafkaITCase.kv;
import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.emulators.Behaviour;
import io.pushline.emulators.Emulators;
import io.pushline.gateway.GatewayJob;
import io.pushline.gateway.GatewayOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop from a vendor's answers to the pacer, with both jobs running: dispatch paces a campaign
 * to Huawei at 200 sends/s, the gateway sends it to the Huawei emulator, which takes 40/s and
 * answers the rest with its throttle code and Retry-After. The gateway's throttle reports on
 * vendor.feedback make the pacer cut its rate towards the quota (push.pacing shows it); once the
 * quota is lifted, the gateway's recovery report lets the rate climb back to its maximum (a quick
 * additive recovery, so it does while the backlog waits). Every send ends as one receipt. Only
 * rates the pacer reports are asserted, no wall-clock timings.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PacerFollowsVendorITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    /** Dispatch at parallelism 2 and the gateway at 1, side by side. */
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    static final int DEVICES = 2_400;
    static final double MAX_RATE = 200;
    static final double QUOTA = 40;
    static final Duration WAIT = Duration.ofMinutes(3);

    @TempDir Path files;

    @Test
    void aVendorsQuotaSlowsThePacerToItAndTheRateRecoversAfter() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        long now = System.currentTimeMillis();
        List<String[]> binds = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            binds.add(
                    kv(
                            "q" + i,
                            bind(now - 60_000, "q" + i, "uq" + i, "huawei", "t" + i, null, null)));
        }
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, binds);
        Behaviour plain = Behaviour.PLAIN.withLatency(5);
        try (Emulators emulators = Emulators.start(files, plain)) {
            emulators.emulator(Vendor.HUAWEI).behave(plain.withQuota(QUOTA));
            JobClient dispatch = dispatch(stack);
            JobClient gateway = gateway(stack, emulators);
            try {
                List<String[]> pushes = new ArrayList<>();
                for (int from = 0; from < DEVICES; from += 300) {
                    pushes.add(kv("c" + from, push(System.currentTimeMillis(), "c" + from, from)));
                }
                KafkaTopics.produce(kafka, Topics.PUSH_REQUESTS, pushes);
                // the quota's throttles cut the pacer's rate to within twice the quota
                Checkpoints.waitUntil(
                        () -> huaweiRates(kafka).stream().anyMatch(r -> r <= 2 * QUOTA),
                        "the pacer's Huawei rate cut towards the quota",
                        WAIT);
                assertThat(emulators.counts(Vendor.HUAWEI).throttled.get()).isPositive();
                int seen = huaweiRates(kafka).size();
                emulators.emulator(Vendor.HUAWEI).behave(plain);
                Checkpoints.waitUntil(
                        () -> {
                            List<Double> r = huaweiRates(kafka);
                            return r.size() > seen
                                    && r.subList(seen, r.size()).stream()
                                            .anyMatch(x -> x >= MAX_RATE * 0.9);
                        },
                        "the rate back near its maximum after the quota was lifted",
                        WAIT);
                Checkpoints.waitUntil(
                        () -> KafkaTopics.readAll(kafka, Topics.RECEIPTS).size() >= DEVICES,
                        "a receipt for every send",
                        WAIT);
            } finally {
                gateway.cancel().get(1, TimeUnit.MINUTES);
                dispatch.cancel().get(1, TimeUnit.MINUTES);
            }
            List<String> receipts = KafkaTopics.readAllAfterJobs(kafka, Topics.RECEIPTS);
            assertThat(receipts).hasSize(DEVICES);
            long sent = receipts.stream().filter(r -> r.contains("\"type\":\"sent\"")).count();
            assertThat(sent).isEqualTo(emulators.counts(Vendor.HUAWEI).accepted.get());
        }
    }

    /** The Huawei rates the pacer reported on push.pacing, in order. */
    private static List<Double> huaweiRates(String kafka) {
        return KafkaTopics.readAll(kafka, Topics.PACING_STATUS).stream()
                .map(s -> Json.read(s, PacingStatus.class))
                .filter(p -> p.vendor.equals("huawei"))
                .sorted(java.util.Comparator.comparingLong(p -> p.ts))
                .map(p -> p.rate)
                .collect(Collectors.toList());
    }

    private static JobClient dispatch(LocalStack stack) throws Exception {
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-quota-dispatch");
        opts.put(DispatchOptions.PACING_RATES.key(), "huawei:" + (int) MAX_RATE);
        opts.put(DispatchOptions.AUDIENCE_HOLD_WATERMARK.key(), "false");
        // a quick additive recovery (a quarter of the maximum a second), so the rate is back
        // while the campaign's backlog still waits
        opts.put("dispatch.pacing.recovery-per-second", "0.25");
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itquota");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        return DispatchJob.start(env, Configuration.fromMap(opts));
    }

    private static JobClient gateway(LocalStack stack, Emulators emulators) throws Exception {
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.putAll(emulators.gatewayOptions());
        opts.put(GatewayOptions.ENABLED.key(), "huawei");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(GatewayOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-quota-gateway");
        // a throttled send waits out Retry-After and tries again until the quota lets it through
        opts.put(GatewayOptions.RETRIES.key(), "30");
        List<String> args = new ArrayList<>();
        opts.forEach(
                (k, v) -> {
                    args.add("--" + k);
                    args.add(v);
                });
        Configuration options =
                OptionsParser.parse(args.toArray(new String[0]), GatewayOptions.accepted());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(1);
        return GatewayJob.start(env, options);
    }

    private static String push(long ts, String msgId, int from) {
        String uids =
                IntStream.range(from, Math.min(DEVICES, from + 300))
                        .mapToObj(i -> "\"uq" + i + "\"")
                        .collect(Collectors.joining(","));
        return "{\"ts\":"
                + ts
                + ",\"type\":\"push\",\"msgId\":\""
                + msgId
                + "\",\"msgType\":\"news\",\"level\":1,\"title\":\"T\",\"body\":\"B\","
                + "\"target\":{\"uids\":["
                + uids
                + "]}}";
    }
}
