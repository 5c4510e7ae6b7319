package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.audience.IdDictionary;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import java.io.File;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * serve as it is deployed: its runnable jar copied alone into an empty folder and started with
 * {@code java -jar} (no checkout, no Maven, no {@code ./pushline} on its path), its tokens from
 * files through the {@code ${file:..}} syntax, against the embedded Kafka and HBase. It answers
 * {@code /health}, the inbox (refused without the app token) and the console's dry run, which its
 * own JVM child runs from the same jar against a dispatch savepoint.
 */
class ServeJarITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itservejar";

    @TempDir Path empty;

    @Test
    void theJarAloneInAnEmptyFolderAnswersHealthTheInboxAndADryRun() throws Exception {
        LocalStack stack = STACK.get();
        Path jar = Files.copy(serveJar(), empty.resolve("pushline-serve.jar"));
        Files.writeString(empty.resolve("app-token"), "app-secret-1\n");
        Files.writeString(empty.resolve("console-token"), "console-secret-1\n");
        Path savepoint = savepoint(empty.resolve("checkpoints/savepoint-gate-v3"));
        try (Connection c =
                ConnectionFactory.createConnection(HBaseTables.clientConf(stack.hbaseZkQuorum()))) {
            HBaseTables.ensure(c, NS);
            Map<String, Integer> ids;
            List<String> uids = List.of("u-s-cap", "u-s-interval", "u-nobody");
            try (IdDictionary d = new IdDictionary(c, NS, 1_000)) {
                ids = d.assignAll(uids);
            }
            try (SegmentStore store = new SegmentStore(c, NS)) {
                store.write(
                        "three",
                        IdSet.of(uids.stream().mapToInt(ids::get).toArray()).toBytes(),
                        3,
                        "test: three users");
            }
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder pb =
                new ProcessBuilder(
                        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        jar.getFileName().toString(),
                        "--kafka.bootstrap-servers",
                        stack.kafkaBootstrap(),
                        "--hbase.zookeeper.quorum",
                        stack.hbaseZkQuorum(),
                        "--hbase.namespace",
                        NS,
                        "--serve.port",
                        Integer.toString(port),
                        "--serve.app-token",
                        "${file:" + empty.resolve("app-token") + "}",
                        "--serve.console.token",
                        "${file:" + empty.resolve("console-token") + "}",
                        "--serve.console.dispatch-checkpoints",
                        empty.resolve("checkpoints").toString());
        pb.directory(empty.toFile());
        // nothing of the checkout: no launcher on the path, a home of its own
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().remove("PUSHLINE_ROOT");
        pb.environment().put("PUSHLINE_HOME", empty.resolve("home").toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(empty.resolve("serve.out").toFile());
        pb.redirectInput(new File("/dev/null"));
        Process serve = pb.start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://localhost:" + port;
            awaitHealth(http, base, serve);
            assertThat(get(http, base + "/v1/inbox/u1", null).statusCode()).isEqualTo(401);
            HttpResponse<String> inbox = get(http, base + "/v1/inbox/u1", "app-secret-1");
            assertThat(inbox.statusCode()).isEqualTo(200);
            assertThat(Json.read(inbox.body(), JsonNode.class).path("uid").asText())
                    .isEqualTo("u1");
            // the console's token does not open the app API
            assertThat(get(http, base + "/v1/inbox/u1", "console-secret-1").statusCode())
                    .isEqualTo(401);
            HttpResponse<String> dry =
                    http.send(
                            HttpRequest.newBuilder(URI.create(base + "/v1/audiences/dry-run"))
                                    .header("Authorization", "Bearer console-secret-1")
                                    .header("Content-Type", "application/json")
                                    .timeout(Duration.ofMinutes(3))
                                    .POST(
                                            HttpRequest.BodyPublishers.ofString(
                                                    "{\"expression\":\"three\",\"msgType\":\"promo\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            JsonNode answer = Json.read(dry.body(), JsonNode.class);
            assertThat(answer.path("ok").asBoolean()).as(dry.body()).isTrue();
            assertThat(answer.path("members").asLong()).isEqualTo(3);
            // u-nobody has no device in the savepoint's uid index; the other two have one each
            assertThat(answer.path("withDevice").asLong()).isEqualTo(2);
            assertThat(answer.path("state").path("source").asText())
                    .isEqualTo("savepoint " + savepoint.getFileName());
            assertThat(Files.readString(empty.resolve("serve.out")))
                    .doesNotContain("app-secret-1")
                    .doesNotContain("console-secret-1");
        } finally {
            serve.destroy();
            if (!serve.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    private static void awaitHealth(HttpClient http, String base, Process serve) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            assertThat(serve.isAlive()).as("serve exited during start-up").isTrue();
            try {
                if (get(http, base + "/health", null).statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            assertThat(System.nanoTime()).as("/health within 2 minutes").isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    private static HttpResponse<String> get(HttpClient http, String url, String token)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** serve/app's runnable jar, as this build packaged it. */
    static Path serveJar() throws Exception {
        Path target = K8sManifestsTest.k8sDir().getParent().resolve("serve/app/target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-all.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no -all.jar under " + target));
        }
    }

    /** The dispatch job's savepoint of the upgrade test, out of its test jar into {@code dir}. */
    private static Path savepoint(Path dir) throws Exception {
        Files.createDirectories(dir);
        try (InputStream in =
                ServeJarITCase.class.getResourceAsStream("/savepoints/gate-v3/_metadata")) {
            assertThat(in).as("the upgrade test's savepoint on the classpath").isNotNull();
            Files.write(dir.resolve("_metadata"), in.readAllBytes());
        }
        return dir;
    }
}
