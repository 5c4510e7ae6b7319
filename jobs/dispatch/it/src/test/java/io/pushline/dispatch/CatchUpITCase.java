package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
    // Binds ahead of the campaign's population. With fetches of 16 KiB per partition (about 100
    // binds) they take some 40 fetches per partition: as many gaps between fetches as 60,000
    // binds at the client's default size gave, at a tenth of the records.
    static final int FILLER = 8_000;
    static final String FETCH_BYTES = "16384";
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

        POPULATION.runToTheEnd(
                stack,
                "it-catchup",
                Map.of(
                        // far shorter than any fetch gap: only the log-end check keeps the
                        // backlog in order
                        DispatchOptions.IDLE_ADVANCE.key(),
                        "10 ms",
                        DispatchOptions.AUDIENCE_CHUNK_SIZE.key(),
                        "64",
                        CommonOptions.KAFKA_PROPERTIES_PREFIX + "max.partition.fetch.bytes",
                        FETCH_BYTES));
    }

    @Test
    void theCampaignDecidesAsTheReplayWouldEveryBindSeen() {
        POPULATION.assertDecidedAsTheReplay(kafka, "c1");
        assertThat(Campaigns.sends(kafka)).hasSameSizeAs(POPULATION.expectedSends("c1"));
    }
}
