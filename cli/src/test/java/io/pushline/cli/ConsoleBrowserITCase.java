package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.audience.IdDictionary;
import io.pushline.audience.SavedAudienceStore;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.dispatch.gate.ExampleRules;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.serve.HBaseReminderStore;
import io.pushline.serve.Server;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console in a real headless Chromium against the embedded HBase: log in, type an expression
 * with a misspelt segment and see the contract's message with the caret under its column and the
 * close name offered, take the suggestion, see the exact size and the explain tree, save it, dry
 * run another expression against the dispatch job's savepoint of the upgrade test (real gate state:
 * one device over its daily cap, one within its minimum interval), and find the saved audience with
 * its history. Screenshots go to {@code target/console-screenshots/}.
 */
class ConsoleBrowserITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itconsole";
    static final String TOKEN = "console-secret-token";
    static final Path SHOTS = Paths.get("target", "console-screenshots");

    /** The upgrade trace's cut plus 20 minutes: s-interval passed 25 min ago, s-cap has 5 today. */
    static final long NOW = Instant.parse("2026-03-02T14:05:00Z").toEpochMilli();

    static final List<String> SCRIPTED =
            List.of("u-s-cap", "u-s-interval", "u-s-window", "u-s-dup", "u-s-wait");

    @Test
    void aStrategistFixesATypoSeesTheSizeSavesAndDryRuns() throws Exception {
        LocalStack stack = STACK.get();
        Path savepoint = savepoint();
        Chromium.Paths2 chromium = Chromium.ensure();
        try (Connection c =
                ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()))) {
            HBaseTables.ensure(c, NS);
            segments(c);
            Configuration conf = new Configuration();
            conf.set(CommonOptions.HBASE_ZK_QUORUM, stack.hbaseZkQuorum());
            conf.set(CommonOptions.HBASE_NAMESPACE, NS);
            conf.set(DispatchOptions.GATE_STATE_TTL, Duration.ofDays(3650));
            String rules = ExampleRules.YAML.replace("d-000042", "r-7");
            Properties kafka = new Properties();
            kafka.setProperty("bootstrap.servers", stack.kafkaBootstrap());
            try (Server server =
                            Server.builder()
                                    .reminders(new HBaseReminderStore(c, NS))
                                    .clock(() -> NOW)
                                    .appKey("app-token")
                                    .console(
                                            TOKEN,
                                            c,
                                            NS,
                                            (expr, msgType) ->
                                                    Json.write(
                                                            io.pushline.serve.app.DryRunReport
                                                                    .answer(
                                                                            StreamExecutionEnvironment
                                                                                    .getExecutionEnvironment(),
                                                                            conf,
                                                                            new org.apache.flink
                                                                                    .core.fs.Path(
                                                                                    savepoint
                                                                                            .toUri()),
                                                                            expr,
                                                                            msgType,
                                                                            rules,
                                                                            NOW)))
                                    .build();
                    WebDriver browser = new WebDriver(chromium, Paths.get("target"))) {
                int port = server.start("127.0.0.1", 0);
                String base = "http://127.0.0.1:" + port;
                tokensAreSeparate(base);

                browser.open(base + "/console");
                browser.type("#name", "mia");
                browser.type("#token", TOKEN);
                browser.screenshot(SHOTS.resolve("01-login.png"));
                browser.click("#login");

                // A typo: 'scriptd' at column 11, with 'scripted' offered.
                browser.await("the editor", 10, () -> safe(browser, "#expr-status"), s -> true);
                browser.type("#expr", "random OR scriptd");
                String message =
                        browser.await(
                                "the error",
                                10,
                                () -> safe(browser, "#expr-status"),
                                s -> s.contains("unknown segment"));
                assertThat(message)
                        .isEqualTo(
                                "column 11: unknown segment 'scriptd' (did you mean 'scripted'?)");
                String caret = browser.content("#expr-caret");
                String[] lines = caret.split("\n");
                assertThat(lines[0]).isEqualTo("random OR scriptd");
                assertThat(lines[1]).isEqualTo(" ".repeat(10) + "^");
                assertThat(browser.text(".suggestion")).isEqualTo("scripted");
                browser.screenshot(SHOTS.resolve("02-typo-caret-and-suggestion.png"));

                // The suggestion fixes it: the exact size and the tree.
                browser.click(".suggestion");
                String size =
                        browser.await(
                                "the size", 10, () -> safe(browser, "#size"), s -> !s.equals("-"));
                assertThat(size).isEqualTo("50");
                assertThat(browser.content("#explain"))
                        .contains("OR")
                        .contains("random")
                        .contains("scripted");
                browser.screenshot(SHOTS.resolve("03-fixed-exact-size-explain.png"));

                // Saved, by the name given at login.
                browser.type("#save-name", "reactivation");
                browser.click("#save");
                String saved =
                        browser.await(
                                "the save",
                                10,
                                () -> safe(browser, "#save-status"),
                                s -> s.startsWith("Saved"));
                assertThat(saved).isEqualTo("Saved reactivation v1 (50 members) by mia.");
                try (SavedAudienceStore store = new SavedAudienceStore(c, NS)) {
                    SavedAudienceStore.Version v = store.current("reactivation");
                    assertThat(v.expression).isEqualTo("random OR scripted");
                    assertThat(v.savedBy).isEqualTo("mia");
                    assertThat(v.size).isEqualTo(50);
                    // what the dispatch job records when a campaign names it
                    store.recordUse("reactivation", "spring-promo", NOW, v.version);
                }

                // The dry run: the scripted five as a promo now, from the savepoint's state.
                browser.clear("#expr");
                browser.type("#expr", "scripted");
                browser.await("the new size", 10, () -> safe(browser, "#size"), s -> s.equals("5"));
                assertThat(browser.text("#save-status"))
                        .as("the save was about the expression before the edit")
                        .isEmpty();
                browser.clear("#dry-msgtype");
                browser.type("#dry-msgtype", "promo");
                browser.click("#dry-run");
                browser.await(
                        "the dry run",
                        120,
                        () -> safe(browser, "#dry-status"),
                        s -> !s.startsWith("Reading"));
                assertThat(browser.text("#dry-status")).isEqualTo("Dry run done.");
                assertThat(browser.text("#dry-summary"))
                        .startsWith(
                                "5 members, 5 with a device (5 devices): the gate would pass 3 and"
                                        + " drop 2;");
                assertThat(browser.text("#dry-table tbody tr:first-child"))
                        .contains("fcm")
                        .contains("daily_cap 1, min_interval 1");
                assertThat(browser.text("#dry-freshness")).contains("gate-v3");
                browser.screenshot(SHOTS.resolve("04-dry-run.png"));

                // The saved audience and its history.
                browser.open(base + "/console#saved");
                String row =
                        browser.await(
                                "the saved list",
                                10,
                                () -> safe(browser, "#saved-table"),
                                s -> s.contains("reactivation"));
                assertThat(row).contains("random OR scripted").contains("mia");
                browser.click("#saved-table tbody tr");
                String detail =
                        browser.await(
                                "the history",
                                10,
                                () -> safe(browser, "#saved-detail"),
                                s -> s.contains("v1") && s.contains("spring-promo"));
                assertThat(detail).contains("spring-promo at ").contains("(v1): its funnel");
                assertThat(browser.text("#saved-use"))
                        .contains("\"target\": {\"savedAudience\": \"reactivation\"}");
                browser.screenshot(SHOTS.resolve("05-saved-history.png"));
            }
        }
    }

    /** The console token opens the console API only, the app token the app APIs only. */
    private static void tokensAreSeparate(String base) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        assertThat(get(http, base + "/v1/audiences/segments", null).statusCode()).isEqualTo(401);
        assertThat(get(http, base + "/v1/audiences/segments", "app-token").statusCode())
                .isEqualTo(401);
        HttpResponse<String> ok = get(http, base + "/v1/audiences/segments", TOKEN);
        assertThat(ok.statusCode()).isEqualTo(200);
        JsonNode segs = Json.MAPPER.readTree(ok.body()).get("segments");
        assertThat(segs).hasSize(3);
        assertThat(get(http, base + "/v1/reminders/u1", null).statusCode()).isEqualTo(401);
        assertThat(get(http, base + "/v1/reminders/u1", TOKEN).statusCode()).isEqualTo(401);
        assertThat(get(http, base + "/v1/reminders/u1", "app-token").statusCode()).isEqualTo(200);
        HttpResponse<String> member = get(http, base + "/v1/audiences/uids/u-s-interval", TOKEN);
        assertThat(Json.MAPPER.readTree(member.body()).get("segments").toString())
                .isEqualTo("[\"interval\",\"scripted\"]");
    }

    private static HttpResponse<String> get(HttpClient http, String url, String token)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String safe(WebDriver b, String css) {
        try {
            return b.text(css);
        } catch (Exception e) {
            return null;
        }
    }

    /** random: ru-0..44; scripted: the five scripted devices' uids; interval: one of them. */
    private static void segments(Connection c) throws Exception {
        List<String> uids = new ArrayList<>(SCRIPTED);
        for (int i = 0; i < 45; i++) {
            uids.add("ru-" + i);
        }
        Map<String, Integer> ids;
        try (IdDictionary d = new IdDictionary(c, NS, 1_000)) {
            ids = d.assignAll(uids);
        }
        try (SegmentStore store = new SegmentStore(c, NS)) {
            store.write("scripted", ids(ids, SCRIPTED), 5, "test: the upgrade trace's scripted");
            store.write("random", ids(ids, uids.subList(5, 50)), 45, "test: its random users");
            store.write("interval", ids(ids, List.of("u-s-interval")), 1, "test: one user");
        }
    }

    private static byte[] ids(Map<String, Integer> ids, List<String> uids) {
        return IdSet.of(uids.stream().mapToInt(ids::get).toArray()).toBytes();
    }

    /** The dispatch job's savepoint of the upgrade test, out of its test jar into a folder. */
    private static Path savepoint() throws Exception {
        Path dir = Paths.get("target", "console-it", "gate-v3").toAbsolutePath();
        Files.createDirectories(dir);
        try (InputStream in =
                ConsoleBrowserITCase.class.getResourceAsStream("/savepoints/gate-v3/_metadata")) {
            assertThat(in).as("the upgrade test's savepoint on the classpath").isNotNull();
            Files.write(dir.resolve("_metadata"), in.readAllBytes());
        }
        return dir;
    }
}
