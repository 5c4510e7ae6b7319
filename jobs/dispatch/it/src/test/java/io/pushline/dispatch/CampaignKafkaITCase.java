package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.SavedAudienceStore;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Campaigns by audience expression through the real embedded HBase (dictionary and segments), Kafka
 * and Flink (parallelism 2): exactly the selected uids' devices get the push, once each.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CampaignKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final Campaigns POPULATION = new Campaigns(600, "itcampaign");
    static final String SAVED = "beijing-fans";
    static String kafka;
    @TempDir static Path files;

    @BeforeAll
    static void runCampaigns() throws Exception {
        LocalStack stack = STACK.get();
        kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        POPULATION.buildSegments(stack, files);
        try (Connection c = stack.hbase().newConnection();
                SavedAudienceStore saved = savedStore(c)) {
            // the campaign goes to the current version, not the first
            saved.save(SAVED, "sports", "it", 0, Campaigns.T);
            saved.save(SAVED, Campaigns.EXPRESSION, "it", 0, Campaigns.T + 1);
        }

        List<String[]> requests = new ArrayList<>();
        requests.add(Campaigns.campaign("c1", Campaigns.T + 1_000, Campaigns.EXPRESSION));
        requests.add(Campaigns.campaign("c2", Campaigns.T + 2_000, "sports AND NOT churnd"));
        requests.add(Campaigns.campaign("c3", Campaigns.T + 3_000, "sports AND (region:beijing"));
        requests.add(Campaigns.saved("c4", Campaigns.T + 4_000, SAVED));
        requests.add(Campaigns.saved("c5", Campaigns.T + 5_000, "nobody-saved-this"));
        // lists longer than dispatch.audience.chunk-lists-over: expanded in chunks of 16
        List<String> uids = new ArrayList<>();
        List<String> devices = new ArrayList<>();
        for (int i = 0; i < POPULATION.n; i++) {
            if (POPULATION.selected(i)) {
                uids.add(Campaigns.uid(i));
                devices.addAll(Campaigns.devices(i));
            }
        }
        uids.add(uids.get(0)); // listed twice, decided once
        requests.add(list("l1", Campaigns.T + 6_000, "uids", uids));
        requests.add(list("l2", Campaigns.T + 7_000, "devices", devices));
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, POPULATION.binds());
        KafkaTopics.produce(kafka, Topics.PUSH_REQUESTS, requests);

        POPULATION.runToTheEnd(
                stack,
                "it-campaign",
                Map.of(
                        DispatchOptions.IDLE_ADVANCE.key(), "0 s",
                        DispatchOptions.AUDIENCE_CHUNK_SIZE.key(), "16"));
    }

    private static String[] list(String msgId, long ts, String field, List<String> targets) {
        String target = "{\"" + field + "\":" + Json.write(targets) + "}";
        return DispatchKafkaITCase.kv(msgId, DispatchKafkaITCase.push(ts, msgId, target));
    }

    private static SavedAudienceStore savedStore(Connection c) throws Exception {
        HBaseTables.ensure(c, POPULATION.namespace);
        return new SavedAudienceStore(c, POPULATION.namespace);
    }

    @Test
    void exactlyTheSelectedUidsDevicesGetThePushOnce() {
        assertThat(POPULATION.expectedSends("c1")).hasSizeGreaterThan(100);
        assertOneSendPerExpectedDevice("c1");
    }

    private static void assertOneSendPerExpectedDevice(String msgId) {
        List<String> sends =
                Campaigns.sends(kafka).stream()
                        .filter(s -> s.startsWith(msgId + "/"))
                        .collect(Collectors.toList());
        TreeSet<String> expected = POPULATION.expectedSends(msgId);
        assertThat(sends).hasSameSizeAs(expected);
        assertThat(new TreeSet<>(sends)).isEqualTo(expected);
    }

    @Test
    void everySelectedDeviceHasOnePassAndEveryDevicelessUidOneNoDeviceDrop() {
        POPULATION.assertDecidedAsTheReplay(kafka, "c1");
    }

    @Test
    void aCampaignNamingASavedAudienceGoesToItsCurrentVersionAndIsRecordedThere() throws Exception {
        POPULATION.assertDecidedAsTheReplay(kafka, "c4");
        try (Connection c = STACK.get().hbase().newConnection();
                SavedAudienceStore saved = savedStore(c)) {
            SavedAudienceStore.Saved s = saved.get(SAVED);
            assertThat(s.campaigns()).hasSize(1);
            assertThat(s.campaigns().get(0).msgId).isEqualTo("c4");
            assertThat(s.campaigns().get(0).version).isEqualTo(2);
            assertThat(s.campaigns().get(0).ts).isEqualTo(Campaigns.T + 4_000);
        }
    }

    /** A long uid list is decided as an audience of the same uids would be, each uid once. */
    @Test
    void aLongUidListGoesInChunksAndEachListedUidIsDecidedOnce() {
        assertThat(POPULATION.expectedSends("l1")).hasSizeGreaterThan(100);
        POPULATION.assertDecidedAsTheReplay(kafka, "l1");
    }

    /** A long device list's chunks reach the registry: each listed device gets one send. */
    @Test
    void aLongDeviceListGoesInChunksAndEachListedDeviceGetsOneSend() {
        assertOneSendPerExpectedDevice("l2");
    }

    @Test
    void aBadExpressionSendsNothingAndLandsInTheDeadLetterTopic() {
        List<DeadLetter> dead =
                KafkaTopics.readAll(kafka, Topics.DLQ).stream()
                        .map(l -> Json.read(l, DeadLetter.class))
                        .collect(Collectors.toList());
        assertThat(dead)
                .extracting(d -> d.reason)
                .containsExactlyInAnyOrder(
                        "audience expression rejected: column 16: unknown segment 'churnd'"
                                + " (did you mean 'churned'?)",
                        "audience expression rejected: column 27: expected AND, OR or ')', found end"
                                + " of expression",
                        "no saved audience 'nobody-saved-this'");
        assertThat(dead).allMatch(d -> d.source.equals(Topics.PUSH_REQUESTS));
        assertThat(Campaigns.sends(kafka))
                .allMatch(
                        s ->
                                s.startsWith("c1/")
                                        || s.startsWith("c4/")
                                        || s.startsWith("l1/")
                                        || s.startsWith("l2/"));
    }
}
