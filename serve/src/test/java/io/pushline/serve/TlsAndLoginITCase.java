package io.pushline.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStackExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve.tls.keystore}: the server answers HTTPS only and marks the console's cookie Secure;
 * the console login is throttled after repeated wrong tokens (429 with Retry-After), and a good
 * token from another address still logs in.
 */
class TlsAndLoginITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final String NS = "itservetls";
    static final String CONSOLE = "the-console-token";

    @Test
    void overTlsOnlyAndTheCookieIsSecure(@TempDir Path dir) throws Exception {
        Path keystore = keystore(dir);
        try (Server server = consoleServer().tls(keystore, "store-pass").build()) {
            int port = server.start("127.0.0.1", 0);
            HttpClient https =
                    HttpClient.newBuilder()
                            .sslContext(trustingEveryone())
                            .sslParameters(new SSLParameters())
                            .build();
            HttpResponse<String> health =
                    https.send(
                            HttpRequest.newBuilder(
                                            URI.create("https://127.0.0.1:" + port + "/health"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            // nothing answers in clear text on that port
            HttpClient plain = HttpClient.newBuilder().build();
            assertThatThrownBy(
                            () ->
                                    plain.send(
                                            HttpRequest.newBuilder(
                                                            URI.create(
                                                                    "http://127.0.0.1:"
                                                                            + port
                                                                            + "/health"))
                                                    .timeout(java.time.Duration.ofSeconds(5))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(java.io.IOException.class);

            HttpResponse<String> login = login(https, "https", port, CONSOLE);
            assertThat(login.statusCode()).isEqualTo(302);
            String cookie = login.headers().firstValue("set-cookie").orElseThrow();
            assertThat(cookie)
                    .startsWith(ConsoleAccess.COOKIE + "=")
                    .contains("Secure")
                    .contains("HttpOnly");
        }
    }

    @Test
    void repeatedWrongTokensAreThrottled() throws Exception {
        try (Server server = consoleServer().build()) {
            int port = server.start("127.0.0.1", 0);
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < LoginThrottle.FREE_FAILURES; i++) {
                assertThat(login(http, "http", port, "guess-" + i).statusCode()).isEqualTo(401);
            }
            // the next try, even with the right token, waits
            HttpResponse<String> held = login(http, "http", port, CONSOLE);
            assertThat(held.statusCode()).isEqualTo(429);
            assertThat(held.headers().firstValue("retry-after"))
                    .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 60L));
            assertThat(held.headers().firstValue("set-cookie")).isEmpty();
        }
    }

    @Test
    void throttleWaitsGrowAndAGoodLoginClearsThem() {
        LoginThrottle t = new LoginThrottle();
        long now = 1_000_000;
        for (int i = 0; i < LoginThrottle.FREE_FAILURES - 1; i++) {
            t.failed("a", now);
        }
        assertThat(t.waitMs("a", now)).isZero();
        t.failed("a", now);
        assertThat(t.waitMs("a", now)).isEqualTo(LoginThrottle.FIRST_WAIT_MS);
        t.failed("a", now + 60_000);
        assertThat(t.waitMs("a", now + 60_000)).isEqualTo(2 * LoginThrottle.FIRST_WAIT_MS);
        assertThat(t.waitMs("b", now)).isZero();
        t.succeeded("a");
        assertThat(t.waitMs("a", now + 60_000)).isZero();
    }

    /** A server with the console on the embedded HBase (closing it closes the connection). */
    private static Server.Builder consoleServer() throws Exception {
        Connection hbase =
                ConnectionFactory.createConnection(
                        HBaseTables.clientConf(STACK.get().hbaseZkQuorum()));
        HBaseTables.ensure(hbase, NS);
        return Server.builder()
                .reminders(new HBaseReminderStore(hbase, NS))
                .appKey("app-secret")
                .console(CONSOLE, hbase, NS, (expr, msgType) -> "{}");
    }

    private static HttpResponse<String> login(
            HttpClient http, String scheme, int port, String token) throws Exception {
        return http.send(
                HttpRequest.newBuilder(
                                URI.create(scheme + "://127.0.0.1:" + port + "/console/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("name=mia&token=" + token))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A self-signed key made with the JDK's keytool. */
    private static Path keystore(Path dir) throws Exception {
        Path ks = dir.resolve("serve.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p =
                new ProcessBuilder(
                                List.of(
                                        keytool.toString(),
                                        "-genkeypair",
                                        "-alias",
                                        "serve",
                                        "-keyalg",
                                        "EC",
                                        "-dname",
                                        "CN=localhost",
                                        "-ext",
                                        "SAN=ip:127.0.0.1,dns:localhost",
                                        "-validity",
                                        "2",
                                        "-storetype",
                                        "PKCS12",
                                        "-keystore",
                                        ks.toString(),
                                        "-storepass",
                                        "store-pass"))
                        .redirectErrorStream(true)
                        .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
        assertThat(Files.size(ks)).isPositive();
        return ks;
    }

    private static SSLContext trustingEveryone() throws Exception {
        TrustManager all =
                new X509TrustManager() {
                    @Override
                    public void checkClientTrusted(X509Certificate[] c, String a) {}

                    @Override
                    public void checkServerTrusted(X509Certificate[] c, String a) {}

                    @Override
                    public X509Certificate[] getAcceptedIssuers() {
                        return new X509Certificate[0];
                    }
                };
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {all}, new SecureRandom());
        return ctx;
    }
}
