package io.pushline.vendors;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One vendor's connection pool: Jetty's asynchronous {@link HttpClient} (one pool per vendor and
 * gateway subtask), with the vendor's timeout on every call. A failed call comes back as a {@link
 * Reply} with status 0, never as an exception.
 *
 * <p>An {@code https} URL speaks HTTP/2 where the server offers it through ALPN, HTTP/1.1
 * otherwise. An {@code http} URL (the emulators, a local relay) speaks HTTP/2 with prior knowledge
 * (h2c): HTTP/1.1 needs a connection per call in flight, and against the emulators it took about
 * 4,000 single-token calls a second with ~2% of them failed by connections closed under them, where
 * h2c took 13,000 a second with none failed (the FCM client against its emulator, two clients with
 * 1,000 calls in flight each, on two cores).
 *
 * <p>Not the JDK's HttpClient: its {@code sendAsync} hands every answer to the common fork-join
 * pool, which on a machine of two cores or fewer is a new thread per task, and the gateway spent
 * its CPU starting a thread for each vendor answer (bench gateway: 1,400 sends/s with one thread
 * per answer, the two single-call vendors together).
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

    /** The largest answer read: vendors answer a call for a thousand tokens in well under this. */
    private static final int MAX_ANSWER = 4 << 20;

    /** Connections per vendor and subtask: HTTP/1.1 takes one per call in flight. */
    static final int MAX_CONNECTIONS = 512;

    private final HttpClient client;
    private final long timeoutMs;

    Http(VendorSettings s) {
        this.timeoutMs = s.timeoutMs();
        ClientConnector connector = new ClientConnector();
        SslContextFactory.Client tls = new SslContextFactory.Client();
        if (s.trustedCert() != null && !s.trustedCert().isEmpty()) {
            tls.setSslContext(trusting(Path.of(s.trustedCert())));
        }
        connector.setSslContextFactory(tls);
        // A few threads complete the answers; the work per answer is small.
        QueuedThreadPool threads = new QueuedThreadPool(4, 1);
        threads.setName("pushline-" + s.vendor().wireName() + "-http");
        threads.setDaemon(true);
        connector.setExecutor(threads);
        // HTTP/2 first: through ALPN on TLS, with prior knowledge (h2c) on cleartext
        HttpClientTransportDynamic transport =
                new HttpClientTransportDynamic(
                        connector,
                        new ClientConnectionFactoryOverHTTP2.HTTP2(new HTTP2Client(connector)),
                        HttpClientConnectionFactory.HTTP11);
        this.client = new HttpClient(transport);
        client.setExecutor(threads);
        client.setConnectTimeout(timeoutMs);
        client.setFollowRedirects(false);
        client.setMaxConnectionsPerDestination(MAX_CONNECTIONS);
        client.setMaxRequestsQueuedPerDestination(1 << 16);
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, "pushline-gateway"));
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot start the HTTP client for " + s.vendor().wireName() + ": " + e, e);
        }
    }

    CompletableFuture<Reply> postJson(String url, String json, Map<String, String> headers) {
        return post(url, "application/json; charset=UTF-8", json, headers);
    }

    CompletableFuture<Reply> postForm(String url, Map<String, String> form, Map<String, String> h) {
        return post(url, "application/x-www-form-urlencoded", form(form), h);
    }

    private CompletableFuture<Reply> post(
            String url, String type, String body, Map<String, String> headers) {
        CompletableFuture<Reply> out = new CompletableFuture<>();
        try {
            client.newRequest(url)
                    .method(HttpMethod.POST)
                    .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                    .headers(h -> headers.forEach(h::put))
                    .body(new BytesRequestContent(type, body.getBytes(StandardCharsets.UTF_8)))
                    .send(
                            new BufferingResponseListener(MAX_ANSWER) {
                                @Override
                                public void onComplete(Result r) {
                                    if (r.isFailed()) {
                                        out.complete(new Reply(0, cause(r.getFailure()), null));
                                    } else {
                                        out.complete(
                                                new Reply(
                                                        r.getResponse().getStatus(),
                                                        getContentAsString(StandardCharsets.UTF_8),
                                                        r.getResponse()
                                                                .getHeaders()
                                                                .get(HttpHeader.RETRY_AFTER)));
                                    }
                                }
                            });
        } catch (RuntimeException e) {
            out.complete(new Reply(0, cause(e), null));
        }
        return out;
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
        try {
            client.stop();
        } catch (Exception e) {
            // closing: the connections go with the process
        }
    }
}
