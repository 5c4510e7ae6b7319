package io.pushline.vendors;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * One vendor's connection pool: a JDK {@link HttpClient} (HTTP/2 where the server offers it, one
 * pool per vendor and gateway subtask), with the vendor's timeout on every call. A failed call
 * comes back as a {@link Reply} with status 0, never as an exception.
 */
final class Http implements AutoCloseable {
    /** A vendor's answer: status 0 when there was none (timeout, connection refused ...). */
    record Reply(int status, String body, String retryAfter) {
        boolean ok() {
            return status / 100 == 2;
        }

        boolean serverError() {
            return status == 0 || status / 100 == 5;
        }
    }

    private final HttpClient client;
    private final Duration timeout;

    /** The client's threads (JDK 17's HttpClient cannot be closed: its executor can). */
    private final ExecutorService threads;

    Http(VendorSettings s) {
        this.timeout = Duration.ofMillis(s.timeoutMs());
        // Two threads complete the answers: a cached pool (the client's default) made a thread
        // per call in flight, hundreds per vendor, and the machine spent its time switching.
        this.threads =
                Executors.newFixedThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "pushline-" + s.vendor().wireName() + "-http");
                            t.setDaemon(true);
                            return t;
                        });
        HttpClient.Builder b =
                HttpClient.newBuilder()
                        .executor(threads)
                        .version(HttpClient.Version.HTTP_2)
                        .connectTimeout(timeout)
                        .followRedirects(HttpClient.Redirect.NEVER);
        if (s.trustedCert() != null && !s.trustedCert().isEmpty()) {
            b.sslContext(trusting(Path.of(s.trustedCert())));
        }
        this.client = b.build();
    }

    CompletableFuture<Reply> postJson(String url, String json, Map<String, String> headers) {
        return post(url, "application/json; charset=UTF-8", json, headers);
    }

    CompletableFuture<Reply> postForm(String url, Map<String, String> form, Map<String, String> h) {
        return post(url, "application/x-www-form-urlencoded", form(form), h);
    }

    private CompletableFuture<Reply> post(
            String url, String type, String body, Map<String, String> headers) {
        HttpRequest.Builder r =
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(timeout)
                        .header("Content-Type", type)
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach(r::header);
        return client.sendAsync(r.build(), HttpResponse.BodyHandlers.ofString())
                .handle(
                        (resp, e) ->
                                e != null
                                        ? new Reply(0, cause(e), null)
                                        : new Reply(
                                                resp.statusCode(),
                                                resp.body(),
                                                resp.headers()
                                                        .firstValue("Retry-After")
                                                        .orElse(null)));
    }

    private static String cause(Throwable e) {
        Throwable c = e.getCause() != null ? e.getCause() : e;
        return c.getClass().getSimpleName();
    }

    static String form(Map<String, String> fields) {
        StringJoiner j = new StringJoiner("&");
        fields.forEach(
                (k, v) ->
                        j.add(
                                URLEncoder.encode(k, StandardCharsets.UTF_8)
                                        + "="
                                        + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    /**
     * A Retry-After header in ms: seconds or an HTTP date; {@code fallback} when absent or
     * unreadable, at most an hour (a vendor's typo must not stall a channel for a day).
     */
    static long retryAfterMs(String header, long fallback) {
        if (header == null || header.isBlank()) {
            return fallback;
        }
        long ms;
        try {
            ms = (long) (Double.parseDouble(header.trim()) * 1000);
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at =
                        ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME);
                ms = at.toInstant().toEpochMilli() - System.currentTimeMillis();
            } catch (RuntimeException notADate) {
                return fallback;
            }
        }
        return Math.max(0, Math.min(ms, 3_600_000));
    }

    /** An SSL context trusting only the certificates of a PEM file. */
    static SSLContext trusting(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                ks.setCertificateEntry("trusted-" + i++, c);
            }
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot read the trusted certificates " + pem + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
