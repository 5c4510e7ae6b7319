package io.pushline.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.audience.IdDictionary;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.inbox.InboxStore;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The inbox API of {@code pushline serve} from a real HTTP client against the embedded HBase: the
 * contract's answers, paging with cursors while messages arrive, reads, and a 400 naming the
 * parameter for every kind of bad input.
 */
class InboxServeITCase {
    static final String KEY = "inbox-test-key";

    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itserveinbox";
    static final long NOW = System.currentTimeMillis();
    static Connection hbase;
    static InboxStore writer;
    static Server server;
    static int port;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final List<String> READS = java.util.Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void start() throws Exception {
        LocalStack stack = STACK.get();
        hbase = ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()));
        HBaseTables.ensure(hbase, NS);
        // what the dispatch job writes
        writer = new InboxStore(hbase, NS, Duration.ofDays(90), System::currentTimeMillis);
        server =
                Server.builder()
                        .reminders(new HBaseReminderStore(hbase, NS))
                        .appKey(KEY)
                        .inbox(
                                new InboxStore(
                                        hbase, NS, Duration.ofDays(90), System::currentTimeMillis),
                                new ReadLog() {
                                    @Override
                                    public void read(String uid, List<String> msgIds, long ts) {
                                        msgIds.forEach(m -> READS.add(uid + "/" + m));
                                    }

                                    @Override
                                    public void close() {}
                                })
                        .build();
        port = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        writer.close();
        hbase.close();
    }

    @Test
    void pagesListEveryMessageOnceNewestFirstWhileNewOnesArrive() throws Exception {
        for (int i = 0; i < 7; i++) {
            writer.add("pager", "m" + i, "title " + i, "body " + i, NOW - 10_000 + (i / 2) * 1_000);
        }
        JsonNode first = json(get("/v1/inbox/pager?limit=3"), 200);
        assertThat(first.get("uid").asText()).isEqualTo("pager");
        assertThat(first.get("unread").asLong()).isEqualTo(7);
        List<String> seen = ids(first);
        JsonNode m = first.get("messages").get(0);
        assertThat(m.get("msgId").asText()).isEqualTo("m6");
        assertThat(m.get("title").asText()).isEqualTo("title 6");
        assertThat(m.get("body").asText()).isEqualTo("body 6");
        assertThat(m.get("ts").asLong()).isEqualTo(NOW - 7_000);
        assertThat(m.get("read").asBoolean()).isFalse();
        writer.add("pager", "newest", "", "", NOW); // arrives between pages
        JsonNode page = first;
        while (!page.get("next").isNull()) {
            String cursor = URLEncoder.encode(page.get("next").asText(), StandardCharsets.UTF_8);
            page = json(get("/v1/inbox/pager?limit=3&before=" + cursor), 200);
            seen.addAll(ids(page));
        }
        assertThat(seen).containsExactly("m6", "m5", "m4", "m3", "m2", "m1", "m0");
        assertThat(ids(json(get("/v1/inbox/pager"), 200)).get(0)).isEqualTo("newest");
        JsonNode empty = json(get("/v1/inbox/nobody-here"), 200);
        assertThat(empty.get("messages")).isEmpty();
        assertThat(empty.get("unread").asLong()).isZero();
        assertThat(empty.get("next").isNull()).isTrue();
    }

    @Test
    void readsMarkOnlyWhatWasSentAndAllIsOneCall() throws Exception {
        writer.add("reader", "r1", "", "", NOW - 3_000);
        writer.add("reader", "r2", "", "", NOW - 2_000);
        writer.add("other", "r3", "", "", NOW - 1_000);
        JsonNode r =
                json(post("/v1/inbox/reader/read", "{\"msgIds\":[\"r1\",\"r3\",\"zz\"]}"), 200);
        assertThat(r.get("unread").asLong()).isEqualTo(1);
        assertThat(r.get("ignored")).extracting(JsonNode::asText).containsExactly("r3", "zz");
        JsonNode s = json(get("/v1/inbox/reader/messages/r1"), 200);
        assertThat(s.get("msgId").asText()).isEqualTo("r1");
        assertThat(s.get("readable").asBoolean()).isTrue();
        assertThat(s.get("read").asBoolean()).isTrue();
        JsonNode other = json(get("/v1/inbox/reader/messages/r3"), 200);
        assertThat(other.get("readable").asBoolean()).isFalse();
        assertThat(other.get("read").asBoolean()).isFalse();
        JsonNode list = json(get("/v1/inbox/reader"), 200);
        assertThat(list.get("messages").get(1).get("read").asBoolean()).isTrue();
        assertThat(list.get("messages").get(0).get("read").asBoolean()).isFalse();
        JsonNode all = json(post("/v1/inbox/reader/read", "{\"all\":true}"), 200);
        assertThat(all.get("unread").asLong()).isZero();
        assertThat(all.get("ignored")).isEmpty();
        assertThat(json(get("/v1/inbox/reader"), 200).get("unread").asLong()).isZero();
        // what was marked is told onwards for the receipts (r1 twice: read, then read all)
        assertThat(READS.stream().filter(x -> x.startsWith("reader/")))
                .containsExactly("reader/r1", "reader/r2", "reader/r1");
    }

    @Test
    void broadcastsAndPathEncodedIds() throws Exception {
        String uid = "ü ser/1";
        try (IdDictionary uids = new IdDictionary(hbase, NS, 10)) {
            writer.broadcast("to-all", "hi", "", NOW - 500, IdSet.of(uids.assign(uid)));
        }
        writer.add(uid, "own/id", "", "", NOW - 1_000);
        String path =
                "/v1/inbox/" + URLEncoder.encode(uid, StandardCharsets.UTF_8).replace("+", "%20");
        JsonNode list = json(get(path), 200);
        assertThat(list.get("uid").asText()).isEqualTo(uid);
        assertThat(ids(list)).containsExactly("to-all", "own/id");
        JsonNode s = json(get(path + "/messages/own%2Fid"), 200);
        assertThat(s.get("readable").asBoolean()).isTrue();
    }

    @Test
    void textsThatJsonMustEscapeComeBackAsWritten() throws Exception {
        String title = "say \"hi\"\\ \u00e9\u4e2d\ud83d\ude00";
        String body = "line\nnext\ttab \u0001 </script>";
        writer.add("quoted\"uid", "q\"1", title, body, NOW - 1_000);
        JsonNode list = json(get("/v1/inbox/quoted%22uid"), 200);
        assertThat(list.get("uid").asText()).isEqualTo("quoted\"uid");
        JsonNode m = list.get("messages").get(0);
        assertThat(m.get("msgId").asText()).isEqualTo("q\"1");
        assertThat(m.get("title").asText()).isEqualTo(title);
        assertThat(m.get("body").asText()).isEqualTo(body);
        assertThat(m.get("read").asBoolean()).isFalse();
        assertThat(list.get("next").isNull()).isTrue();
    }

    @Test
    void badInputIsA400NamingTheParameterNeverA500() throws Exception {
        assertError(get("/v1/inbox/x?limit=0"), "limit:");
        assertError(get("/v1/inbox/x?limit=101"), "limit:");
        assertError(get("/v1/inbox/x?limit=ten"), "limit:");
        assertError(get("/v1/inbox/x?before=garbage"), "before:");
        assertError(get("/v1/inbox/" + "x".repeat(300)), "uid:");
        assertError(post("/v1/inbox/x/read", ""), "body:");
        assertError(post("/v1/inbox/x/read", "{"), "body:");
        assertError(post("/v1/inbox/x/read", "[1]"), "body:");
        assertError(post("/v1/inbox/x/read", "{}"), "body:");
        assertError(post("/v1/inbox/x/read", "{\"msgIds\":[\"a\"],\"all\":true}"), "body:");
        assertError(post("/v1/inbox/x/read", "{\"msgIds\":\"a\"}"), "msgIds:");
        assertError(post("/v1/inbox/x/read", "{\"msgIds\":[1]}"), "msgIds:");
        assertError(post("/v1/inbox/x/read", "{\"all\":false}"), "all:");
        assertError(post("/v1/inbox/x/read", "[".repeat(100_000)), "body:");
        String metrics = get("/metrics").body();
        assertThat(metrics).contains("route=\"/v1/inbox/{uid}/read\",status=\"400\"");
        assertThat(metrics).doesNotContain("status=\"500\"");
    }

    /**
     * A plain {@code GET /v1/inbox/{uid}} is answered before Javalin ({@link InboxPageHandler});
     * other forms of it (here a trailing slash) reach Javalin's route. Both give the same answers,
     * uids decoded the same way, and count under the route.
     */
    @Test
    void theFastPageAndTheRouteBehindItAnswerAlike() throws Exception {
        String uid = "a+b+c/é"; // a + in a path is a +, not a space
        writer.add(uid, "fast1", "t", "b", NOW - 2_000);
        writer.add(uid, "fast2", "t", "b", NOW - 1_000);
        // where a decoder that takes + for a space would look
        writer.add("a b+c/é", "fast-other", "t", "b", NOW - 1_000);
        String encoded = "/v1/inbox/a+b%2Bc%2F%C3%A9";
        for (String query : List.of("", "?limit=1", "?limit=0", "?before=garbage")) {
            HttpResponse<String> fast = get(encoded + query);
            HttpResponse<String> routed = get(encoded + "/" + query);
            assertThat(fast.statusCode()).as(fast.body()).isEqualTo(routed.statusCode());
            assertThat(Json.MAPPER.readTree(fast.body()))
                    .isEqualTo(Json.MAPPER.readTree(routed.body()));
            assertThat(fast.headers().firstValue("content-type"))
                    .isEqualTo(routed.headers().firstValue("content-type"));
        }
        JsonNode page = json(get(encoded), 200);
        assertThat(page.get("uid").asText()).isEqualTo(uid);
        assertThat(ids(page)).containsExactly("fast2", "fast1");
        assertError(get("/v1/inbox/%20"), "uid:");
        String metrics = get("/metrics").body();
        assertThat(metrics).contains("route=\"/v1/inbox/{uid}\",status=\"200\"");
        assertThat(metrics).contains("route=\"/v1/inbox/{uid}\",status=\"400\"");
        assertThat(metrics).doesNotContain("a+b");
    }

    /** With an app token set, neither the fast page nor the route answers without it. */
    @Test
    void theAppTokenGuardsThePageInEveryForm() throws Exception {
        writer.add("guarded", "g1", "t", "b", NOW - 1_000);
        // its own connection: closing a server closes the stores' connection
        Connection own =
                ConnectionFactory.createConnection(
                        HBaseTables.clientConf(STACK.get().hbaseZkQuorum()));
        try (Server guarded =
                Server.builder()
                        .reminders(new HBaseReminderStore(own, NS))
                        .inbox(
                                new InboxStore(
                                        own, NS, Duration.ofDays(90), System::currentTimeMillis),
                                null)
                        .appKeys(
                                AppKeys.parse(
                                        List.of(
                                                "# an inbox reader and a sender",
                                                "reader app-token inbox",
                                                "sender push-token push,devices,reminders,status"),
                                        "test keys"))
                        .console("console-token", own, NS, (expr, msgType) -> "{}")
                        .build()) {
            int p = guarded.start("127.0.0.1", 0);
            for (String path : List.of("/v1/inbox/guarded", "/v1/inbox/guarded/")) {
                URI uri = URI.create("http://127.0.0.1:" + p + path);
                for (String auth :
                        List.of("", "Bearer wrong", "Bearer console-token", "Basic app-token")) {
                    HttpRequest.Builder b = HttpRequest.newBuilder(uri);
                    if (!auth.isEmpty()) {
                        b.header("Authorization", auth);
                    }
                    HttpResponse<String> r =
                            HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(path + " " + auth).isEqualTo(401);
                    assertThat(r.body()).doesNotContain("g1").contains("app key");
                    assertThat(Json.MAPPER.readTree(r.body()).get("field").asText())
                            .isEqualTo("Authorization");
                }
                // a key without the inbox scope: 403, on the fast page and the route alike
                HttpResponse<String> other =
                        HTTP.send(
                                HttpRequest.newBuilder(uri)
                                        .header("Authorization", "Bearer push-token")
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertThat(other.statusCode()).as(path).isEqualTo(403);
                assertThat(other.body()).doesNotContain("g1").contains("'inbox'");
                HttpResponse<String> ok =
                        HTTP.send(
                                HttpRequest.newBuilder(uri)
                                        .header("Authorization", "bearer app-token")
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertThat(ids(json(ok, 200))).as(path).containsExactly("g1");
            }
        }
    }

    /**
     * A cross-site form can post {@code text/plain} or a form encoding without a preflight: marking
     * read takes JSON only (415 before the body is read), and nothing is marked.
     */
    @Test
    void markingReadTakesJsonOnly() throws Exception {
        writer.add("formed", "f1", "t", "b", NOW - 1_000);
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded")) {
            HttpResponse<String> r =
                    HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create(
                                                    "http://127.0.0.1:"
                                                            + port
                                                            + "/v1/inbox/formed/read"))
                                    .header("Content-Type", type)
                                    .header("Authorization", "Bearer " + KEY)
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"all\":true}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(type).isEqualTo(415);
        }
        assertThat(json(get("/v1/inbox/formed"), 200).get("unread").asLong()).isEqualTo(1);
    }

    /**
     * A server may start before any job has created the tables, and jobs start at the same time:
     * creating them is safe from several processes at once, and the tables are all there after.
     */
    @Test
    void tablesCreatedFromSeveralPlacesAtOnceAllExist() throws Exception {
        String ns = "itserveraced";
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t =
                    new Thread(
                            () -> {
                                try (Connection c =
                                        ConnectionFactory.createConnection(
                                                HBaseTables.clientConf(
                                                        STACK.get().hbaseZkQuorum()))) {
                                    HBaseTables.ensure(c, ns);
                                } catch (Throwable e) {
                                    failures.add(e);
                                }
                            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failures).isEmpty();
        try (var admin = hbase.getAdmin()) {
            assertThat(admin.tableExists(HBaseTables.reminders(ns))).isTrue();
            assertThat(admin.tableExists(TableName.valueOf(ns, HBaseTables.SAVED_AUDIENCES)))
                    .isTrue();
            assertThat(admin.listTableNamesByNamespace(ns)).hasSize(11);
        }
    }

    private static void assertError(HttpResponse<String> r, String prefix) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).get("error").asText()).startsWith(prefix);
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.get("messages").forEach(n -> out.add(n.get("msgId").asText()));
        return out;
    }

    private static JsonNode json(HttpResponse<String> r, int status) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type").orElse(""))
                .startsWith("application/json");
        return Json.MAPPER.readTree(r.body());
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Authorization", "Bearer " + KEY)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("content-type", "application/json")
                        .header("Authorization", "Bearer " + KEY)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
