package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.HBaseTables;
import io.pushline.inbox.InboxOptions;
import io.pushline.inbox.InboxStore;
import io.pushline.inbox.Message;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests with {@code inbox: true} through the dispatch job on the real stack (Kafka, HBase, Flink
 * at parallelism 2): listed uids, the bound uids of listed devices and an audience get the message
 * in their inboxes whatever the gate decides, the audience's stored once; reads on inbox.events
 * then mark messages read, ignore what was not sent, and dead-letter bad lines.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class InboxKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final Campaigns POPULATION = new Campaigns(300, "itinboxjob");
    static final long T = Campaigns.T;
    // the population is dated 2026-01-01: keep its messages
    static final Map<String, String> OPTS = Map.of(InboxOptions.RETENTION.key(), "3650 d");
    static String kafka;
    static Connection hbase;
    static InboxStore store;
    @TempDir static Path files;

    @BeforeAll
    static void run() throws Exception {
        LocalStack stack = STACK.get();
        kafka = stack.kafkaBootstrap();
        // every topic, receipts too: another test class in this JVM may have left receipts there
        stack.kafka().recreateTopics(Topics.all(), 2);
        POPULATION.buildSegments(stack, files);
        List<String[]> requests = new ArrayList<>();
        String u1 = Campaigns.uid(1);
        String u2 = Campaigns.uid(2);
        String d3 = Campaigns.devices(3).get(0);
        requests.add(
                inbox("p1", T + 1_000, "{\"uids\":[\"" + u1 + "\",\"" + u2 + "\",\"lonely\"]}"));
        requests.add(inbox("p2", T + 2_000, "{\"devices\":[\"" + d3 + "\",\"unbound\"]}"));
        requests.add(inbox("p3", T + 3_000, "{\"audience\":\"" + Campaigns.EXPRESSION + "\"}"));
        requests.add(
                DispatchKafkaITCase.kv(
                        "p4",
                        DispatchKafkaITCase.push(T + 4_000, "p4", "{\"uids\":[\"" + u1 + "\"]}")));
        // the same request twice, 1 ms apart, in two partitions, the later one produced first:
        // every inbox keeps the first request's entry
        requests.add(twice(1, T + 4_501, "second"));
        requests.add(twice(0, T + 4_500, "first"));
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, POPULATION.binds());
        KafkaTopics.produce(kafka, Topics.PUSH_REQUESTS, requests);
        POPULATION.runToTheEnd(stack, "it-inbox-1", OPTS);

        hbase = ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()));
        store =
                new InboxStore(
                        hbase,
                        POPULATION.namespace,
                        Duration.ofDays(3650),
                        System::currentTimeMillis);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        hbase.close();
    }

    static String[] inbox(String msgId, long ts, String target) {
        String line = DispatchKafkaITCase.push(ts, msgId, target);
        return DispatchKafkaITCase.kv(
                msgId, line.substring(0, line.length() - 1) + ",\"inbox\":true}");
    }

    static final List<String> TWICE =
            List.of("twice0", "twice1", "twice2", "twice3", "twice4", "twice5");

    /** The request "p5" with {@code title}, under a key of push.requests' {@code partition}. */
    static String[] twice(int partition, long ts, String title) {
        String key = "p5";
        for (int i = 0; Utils.toPositive(Utils.murmur2(key.getBytes())) % 2 != partition; i++) {
            key = "p5-" + i;
        }
        String line =
                DispatchKafkaITCase.push(
                        ts, "p5", "{\"uids\":[\"" + String.join("\",\"", TWICE) + "\"]}");
        line = line.replace("\"title\":\"", "\"title\":\"" + title + " ");
        return DispatchKafkaITCase.kv(
                key, line.substring(0, line.length() - 1) + ",\"inbox\":true}");
    }

    static List<String> inboxOf(String uid) throws Exception {
        return store.view(uid).page(100, null).messages().stream().map(Message::msgId).toList();
    }

    @Test
    void targetsGetTheMessageWhateverTheGateDecidesAndTheAudienceItsBroadcast() throws Exception {
        List<String> p3 = POPULATION.selected(1) ? List.of("p3", "p1") : List.of("p1");
        assertThat(inboxOf(Campaigns.uid(1))).isEqualTo(p3); // newest first, p4 had no inbox
        assertThat(inboxOf("lonely")).containsExactly("p1"); // no device: dropped, still in
        List<String> third = new ArrayList<>(POPULATION.selected(3) ? List.of("p3") : List.of());
        third.add("p2");
        assertThat(inboxOf(Campaigns.uid(3))).isEqualTo(third);
        int members = 0;
        for (int i = 4; i < POPULATION.n; i++) {
            boolean has = inboxOf(Campaigns.uid(i)).contains("p3");
            assertThat(has).as(Campaigns.uid(i)).isEqualTo(POPULATION.selected(i));
            members += has ? 1 : 0;
        }
        assertThat(members).isGreaterThan(20);
        // the audience's message is one broadcast, not a row per member
        // u1, u2, lonely, the uid of d3 and those of p5
        assertThat(store.rows("u:")).isEqualTo(4 + TWICE.size());
        assertThat(store.rows("b:")).isEqualTo(1);
        assertThat(store.rows("m:")).isEqualTo(4);
        // each row written is told on inbox.changes, for servers that cache rows; a broadcast
        // is in no row
        assertThat(
                        KafkaTopics.readAll(kafka, Topics.INBOX_CHANGES).stream()
                                .map(l -> Json.read(l, InboxChange.class).uid)
                                .filter(uid -> uid != null) // a message's notice
                                .distinct())
                .containsAll(
                        List.of(Campaigns.uid(1), Campaigns.uid(2), "lonely", Campaigns.uid(3)))
                .containsAll(TWICE)
                .hasSize(4 + TWICE.size());
    }

    @Test
    void theSameRequestTwiceLeavesTheFirstOnesEntryInEveryInbox() throws Exception {
        for (String uid : TWICE) {
            assertThat(store.view(uid).messages())
                    .as(uid)
                    .singleElement()
                    .satisfies(
                            m -> {
                                assertThat(m.ts()).isEqualTo(T + 4_500);
                                assertThat(m.title()).startsWith("first ");
                            });
        }
    }

    @Test
    void readsMarkWhatWasSentIgnoreTheRestAndBadLinesAreDeadLetters() throws Exception {
        String u1 = Campaigns.uid(1);
        String u2 = Campaigns.uid(2);
        KafkaTopics.produce(
                kafka,
                Topics.INBOX_EVENTS,
                List.of(
                        DispatchKafkaITCase.kv(
                                u1,
                                "{\"ts\":"
                                        + (T + 5_000)
                                        + ",\"type\":\"read\",\"uid\":\""
                                        + u1
                                        + "\",\"msgIds\":[\"p1\",\"p4\"]}"),
                        DispatchKafkaITCase.kv(
                                u2,
                                "{\"ts\":"
                                        + (T + 5_000)
                                        + ",\"type\":\"read\",\"uid\":\""
                                        + u2
                                        + "\",\"all\":true}"),
                        DispatchKafkaITCase.kv("x", "{\"ts\":1,\"type\":\"read\",\"uid\":\"x\"}")));
        // a second pass: the requests again (no change to any inbox), then the reads
        POPULATION.runToTheEnd(STACK.get(), "it-inbox-2", OPTS);
        assertThat(store.status(u1, "p1")).isEqualTo(new InboxStore.Status(true, true));
        assertThat(store.status(u1, "p4").readable()).isFalse();
        assertThat(store.view(u2).unread()).isZero();
        assertThat(store.view(u2).ids().getCardinality()).isEqualTo(POPULATION.selected(2) ? 2 : 1);
        List<DeadLetter> dead =
                KafkaTopics.readAll(kafka, Topics.DLQ).stream()
                        .map(l -> Json.read(l, DeadLetter.class))
                        .filter(d -> Topics.INBOX_EVENTS.equals(d.source))
                        .toList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).reason).contains("'msgIds'").contains("'all'");
        // each first read of a message by a uid is one receipt for the receipts job
        List<String> receipts = new ArrayList<>();
        for (String line : KafkaTopics.readAll(kafka, Topics.RECEIPTS)) {
            JsonNode r = Json.MAPPER.readTree(line);
            assertThat(r.get("type").asText()).isEqualTo("inbox_read");
            assertThat(r.get("ts").asLong()).isEqualTo(T + 5_000);
            receipts.add(r.get("uid").asText() + "/" + r.get("msgId").asText());
        }
        List<String> expected = new ArrayList<>(List.of(u1 + "/p1", u2 + "/p1"));
        if (POPULATION.selected(2)) {
            expected.add(u2 + "/p3");
        }
        assertThat(receipts).containsExactlyInAnyOrderElementsOf(expected);
    }
}
