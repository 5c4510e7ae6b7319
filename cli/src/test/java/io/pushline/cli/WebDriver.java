package io.pushline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A headless Chromium driven through chromedriver's W3C WebDriver protocol (JSON over HTTP on
 * localhost): the few commands the console's tests use, without a client library.
 */
final class WebDriver implements AutoCloseable {
    private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

    private final Process driver;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;
    private final String session;

    WebDriver(Chromium.Paths2 chromium, Path logs) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.createDirectories(logs);
        driver =
                new ProcessBuilder(
                                chromium.driver().toString(),
                                "--port=" + port,
                                "--allowed-ips=127.0.0.1")
                        .redirectErrorStream(true)
                        .redirectOutput(logs.resolve("chromedriver.log").toFile())
                        .start();
        base = "http://127.0.0.1:" + port;
        JsonNode status = null;
        for (int i = 0; i < 200 && status == null; i++) {
            try {
                status = call("GET", "/status", null);
            } catch (IOException notYet) {
                synchronized (this) {
                    wait(50);
                }
            }
        }
        Map<String, Object> options =
                Map.of(
                        "binary",
                        chromium.browser().toString(),
                        "args",
                        List.of(
                                "--headless=new",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-dev-shm-usage",
                                "--window-size=1280,1000"));
        JsonNode s =
                call(
                        "POST",
                        "/session",
                        Map.of(
                                "capabilities",
                                Map.of(
                                        "alwaysMatch",
                                        Map.of(
                                                "browserName",
                                                "chrome",
                                                "goog:chromeOptions",
                                                options))));
        session = s.get("value").get("sessionId").asText();
    }

    void open(String url) throws IOException, InterruptedException {
        cmd("POST", "/url", Map.of("url", url));
    }

    String find(String css) throws IOException, InterruptedException {
        JsonNode v = cmd("POST", "/element", Map.of("using", "css selector", "value", css));
        if (v == null || v.get(ELEMENT) == null) {
            throw new IOException("no element " + css + ": " + v);
        }
        return v.get(ELEMENT).asText();
    }

    void type(String css, String text) throws IOException, InterruptedException {
        cmd("POST", "/element/" + find(css) + "/value", Map.of("text", text));
    }

    void clear(String css) throws IOException, InterruptedException {
        cmd("POST", "/element/" + find(css) + "/clear", Map.of());
    }

    void click(String css) throws IOException, InterruptedException {
        cmd("POST", "/element/" + find(css) + "/click", Map.of());
    }

    String text(String css) throws IOException, InterruptedException {
        return cmd("GET", "/element/" + find(css) + "/text", null).asText();
    }

    /** The element's textContent (also of hidden or whitespace-only parts, such as the caret). */
    String content(String css) throws IOException, InterruptedException {
        return cmd(
                        "POST",
                        "/execute/sync",
                        Map.of(
                                "script",
                                "const e = document.querySelector(arguments[0]);"
                                        + " return e ? e.textContent : null;",
                                "args",
                                List.of(css)))
                .asText();
    }

    /** Waits up to {@code seconds} for {@code condition}; the last value it saw otherwise. */
    String await(
            String what,
            double seconds,
            Supplier<String> value,
            java.util.function.Predicate<String> ok)
            throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        String last = null;
        while (System.nanoTime() < end) {
            last = value.get();
            if (last != null && ok.test(last)) {
                return last;
            }
            synchronized (this) {
                wait(100);
            }
        }
        throw new AssertionError(what + ": not seen within " + seconds + " s; last: " + last);
    }

    void screenshot(Path file) throws IOException, InterruptedException {
        String png = cmd("GET", "/screenshot", null).asText();
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(png));
    }

    private JsonNode cmd(String method, String path, Object body)
            throws IOException, InterruptedException {
        return call(method, "/session/" + session + path, body).get("value");
    }

    private JsonNode call(String method, String path, Object body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)))
                    .header("Content-Type", "application/json");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode n = Json.MAPPER.readTree(r.body());
        if (r.statusCode() != 200) {
            throw new IOException("webdriver " + method + " " + path + ": " + r.body());
        }
        return n;
    }

    @Override
    public void close() {
        try {
            call("DELETE", "/session/" + session, null);
        } catch (Exception e) {
            // the browser goes with the driver
        }
        driver.destroy();
    }
}
