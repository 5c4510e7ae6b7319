package io.pushline.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.audience.IdDictionary;
import io.pushline.common.HBaseTables;
import io.pushline.inbox.InboxStore;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.KafkaTopics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server's inbox cache against the embedded Kafka and HBase: filled by a scan at start,
 * answering from memory, refreshed by a notice on inbox.changes as the dispatch job writes them,
 * and showing the server's own writes at once.
 */
class InboxCacheITCase {
    static final String KEY = "cache-test-key";

    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itservecache";
    static final long NOW = System.currentTimeMillis();
    static final Duration WAIT = Duration.ofSeconds(30);
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static Connection hbase;
    static InboxStore writer;
    static InboxChangeFeed feed;
    static Server server;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        LocalStack stack = STACK.get();
        stack.kafka().recreateTopics(List.of(Topics.INBOX_CHANGES), 2);
        hbase = ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()));
        HBaseTables.ensure(hbase, NS);
        // what the dispatch job writes
        writer = new InboxStore(hbase, NS, Duration.ofDays(90), System::currentTimeMillis);
        // u1 has a dictionary id (as a uid in any audience has): its pages are answered on the
        // network thread from memory; u2's and u9's rows carry none, so theirs go to a worker
        try (IdDictionary uids = new IdDictionary(hbase, NS, 10)) {
            uids.assign("u1");
        }
        writer.add("u1", "m1", "T1", "B1", NOW - 3_000);
        writer.add("u2", "m1", "T1", "B1", NOW - 3_000);
        Properties kafka = new Properties();
        kafka.setProperty("bootstrap.servers", stack.kafkaBootstrap());
        InboxStore served =
                new InboxStore(hbase, NS, Duration.ofDays(90), System::currentTimeMillis);
        server =
                Server.builder()
                        .reminders(new HBaseReminderStore(hbase, NS))
                        .inbox(served, null)
                        .appKey(KEY)
                        .build();
        port = server.start("127.0.0.1", 0);
        feed = InboxChangeFeed.attach(kafka, served, 64 << 20);
        server.addMetrics(feed::prometheus);
        feed.start();
        assertThat(feed.awaitReady(WAIT)).as("the cache filled").isTrue();
    }

    @AfterAll
    static void stop() throws Exception {
        feed.close();
        server.close();
        writer.close();
        hbase.close();
    }

    @Test
    void readsComeFromMemoryAndANoticeBringsAChangeIn() throws Exception {
        assertThat(ids(page("u1"))).containsExactly("m1");
        assertThat(metric("pushline_inbox_cache_hits_total")).isGreaterThanOrEqualTo(1);
        assertThat(metric("pushline_inbox_cache_rows")).isEqualTo(2);

        writer.add("u1", "m2", "T2", "B2", NOW - 2_000);
        writer.add("u9", "m2", "T2", "B2", NOW - 2_000);
        // without its notice the change is not seen: the answer came from memory
        assertThat(ids(page("u1"))).containsExactly("m1");
        notice("u1", "u9");
        Checkpoints.waitUntil(
                () -> ids(page("u1")).equals(List.of("m2", "m1")), "u1's change served", WAIT);
        Checkpoints.waitUntil(
                () -> ids(page("u9")).equals(List.of("m2")), "a new inbox served", WAIT);
        assertThat(metric("pushline_inbox_cache_rows")).isEqualTo(3);
        assertThat(metric("pushline_inbox_changes_total")).isGreaterThanOrEqualTo(2);
    }

    /**
     * u1's first read loads the broadcasts and messages from HBase on a worker; the next ones are
     * answered from memory on the network thread: the same answer, byte for byte.
     */
    @Test
    void aPageFromMemoryIsThePageFromTheStore() throws Exception {
        String first = get("/v1/inbox/u1?limit=1").body();
        assertThat(Json.MAPPER.readTree(first).get("uid").asText()).isEqualTo("u1");
        for (int i = 0; i < 5; i++) {
            assertThat(get("/v1/inbox/u1?limit=1").body()).isEqualTo(first);
        }
        assertError(get("/v1/inbox/u1?limit=0"), "limit:");
        assertError(get("/v1/inbox/u1?before=x"), "before:");
    }

    private static void assertError(HttpResponse<String> r, String prefix) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).get("error").asText()).startsWith(prefix);
    }

    @Test
    void theServersOwnReadsShowAtOnce() throws Exception {
        HttpResponse<String> r =
                HTTP.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://127.0.0.1:" + port + "/v1/inbox/u2/read"))
                                .header("content-type", "application/json")
                                .header("Authorization", "Bearer " + KEY)
                                .POST(HttpRequest.BodyPublishers.ofString("{\"all\":true}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode page = page("u2");
        assertThat(page.get("unread").asLong()).isZero();
        assertThat(page.get("messages").get(0).get("read").asBoolean()).isTrue();
        assertThat(metric("pushline_inbox_cache_on")).isEqualTo(1);
    }

    static void notice(String... uids) throws Exception {
        List<String[]> records = new ArrayList<>();
        for (String uid : uids) {
            records.add(
                    KafkaTopics.kv(
                            uid, Json.write(InboxChange.of(System.currentTimeMillis(), uid))));
        }
        KafkaTopics.produce(STACK.get().kafkaBootstrap(), Topics.INBOX_CHANGES, records);
    }

    static JsonNode page(String uid) {
        try {
            HttpResponse<String> r = get("/v1/inbox/" + uid);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return Json.MAPPER.readTree(r.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.get("messages").forEach(n -> out.add(n.get("msgId").asText()));
        return out;
    }

    static long metric(String name) throws Exception {
        for (String line : get("/metrics").body().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError("no metric " + name);
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Authorization", "Bearer " + KEY)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
