package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Decision;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign read from a backlog (binds stamped months ago, far more of them than one fetch) with
 * idle advance on and short: the job decides exactly as the replay would, because a quiet partition
 * follows the wall clock only once it is read to its end. Without that, a fetch gap while the binds
 * are read moves the watermark to today and the binds after it arrive late: the campaign finds
 * their uids without devices.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CatchUpITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final Campaigns POPULATION = new Campaigns(600, "itcatchup");
    static final int FILLER = 60_000;
    static String kafka;
    @TempDir static Path files;

    @BeforeAll
    static void runCampaignFromBacklog() throws Exception {
        LocalStack stack = STACK.get();
        kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        POPULATION.buildSegments(stack, files);

        List<String[]> binds = new ArrayList<>();
        for (int i = 0; i < FILLER; i++) {
            String d = "filler-" + i;
            binds.add(
                    DispatchKafkaITCase.kv(
                            d,
                            DispatchKafkaITCase.bind(
                                    Campaigns.T - 60_000 + i / 100,
                                    d,
                                    "filler-u" + i,
                                    "fcm",
                                    "tok",
                                    null,
                                    null)));
        }
        binds.addAll(POPULATION.binds());
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, binds);
        KafkaTopics.produce(
                kafka,
                Topics.PUSH_REQUESTS,
                List.<String[]>of(
                        Campaigns.campaign("c1", Campaigns.T + 1_000, Campaigns.EXPRESSION)));

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), POPULATION.namespace);
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        // far shorter than any fetch gap: only the log-end check keeps the backlog in order
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "10 ms");
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-catchup");
        opts.put(DispatchOptions.AUDIENCE_CHUNK_SIZE.key(), "64");

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        DispatchJob.start(env, Configuration.fromMap(opts))
                .getJobExecutionResult()
                .get(4, TimeUnit.MINUTES);
    }

    @Test
    void theCampaignDecidesAsTheReplayWouldEveryBindSeen() {
        List<Decision> decisions = Campaigns.decisions(kafka);
        TreeSet<String> passes =
                decisions.stream()
                        .filter(Decision::isPass)
                        .map(d -> d.msgId + "/" + d.deviceId + "/" + d.vendor)
                        .collect(Collectors.toCollection(TreeSet::new));
        List<String> drops =
                decisions.stream()
                        .filter(d -> !d.isPass())
                        .map(d -> d.msgId + "/" + d.uid + "/" + d.reason)
                        .collect(Collectors.toList());
        assertThat(drops)
                .containsExactlyInAnyOrderElementsOf(
                        POPULATION.expectedNoDevice("c1").stream()
                                .map(s -> s + "/no_device")
                                .collect(Collectors.toList()));
        assertThat(passes).isEqualTo(POPULATION.expectedSends("c1"));
        assertThat(Campaigns.sends(kafka)).hasSameSizeAs(POPULATION.expectedSends("c1"));
    }
}
