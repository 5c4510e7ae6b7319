package io.pushline.emulators;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An emulated vendor push service on the loopback interface: its token endpoint (answering only the
 * right credentials), its send endpoints (answering only tokens it issued), its success and error
 * bodies, invalid tokens, a quota answered with 429 and Retry-After (or the vendor's throttle
 * code), 5xx failures and latency, as {@link Behaviour} says. Counts what it saw ({@link Counts}).
 *
 * <p>Served by Jetty (HTTP/1.1 with keep-alive, and HTTP/2 cleartext on the same port), answering
 * asynchronously: a latency holds no thread. Not the JDK's {@code HttpServer}: behind its four
 * workers it took about 4,000 single-token calls a second from the gateway's client and closed
 * about 2% of the connections under it (EOFException), which capped the one-call-per-send vendors
 * in {@code bench gateway}.
 */
public abstract class HttpEmulator implements AutoCloseable {
    /** A request as the emulator reads it. */
    protected record Request(String path, Map<String, String> headers, String body) {
        JsonNode json() {
            try {
                JsonNode n = Json.MAPPER.readTree(body);
                return n == null ? MissingNode.getInstance() : n;
            } catch (IOException e) {
                return MissingNode.getInstance();
            }
        }

        Map<String, String> form() {
            Map<String, String> out = new LinkedHashMap<>();
            for (String pair : body.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    out.put(
                            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
            return out;
        }

        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** An answer: status, JSON body, extra headers. */
    protected record Reply(int status, String body, Map<String, String> headers) {
        static Reply json(int status, Object body) {
            return new Reply(
                    status, body instanceof String ? (String) body : Json.write(body), Map.of());
        }
    }

    public final Counts counts = new Counts();
    protected final Vendor vendor;
    protected final EmulatorCredentials credentials;
    private volatile Behaviour behaviour;
    private final Server server;
    private final ServerConnector connector;
    private final ScheduledExecutorService delays;
    private final Set<String> issued = ConcurrentHashMap.newKeySet();
    private double bucket = 1;
    private long bucketAt = System.nanoTime();

    protected HttpEmulator(
            Vendor vendor, EmulatorCredentials credentials, Behaviour behaviour, int port)
            throws IOException {
        this.vendor = vendor;
        this.credentials = credentials;
        this.behaviour = behaviour;
        this.delays =
                Executors.newSingleThreadScheduledExecutor(daemon(vendor.wireName() + "-latency"));
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("pushline-" + vendor.wireName() + "-emulator");
        threads.setDaemon(true);
        this.server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        this.connector =
                new ServerConnector(
                        server,
                        new HttpConnectionFactory(http),
                        new HTTP2CServerConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setAcceptQueueSize(1024);
        server.addConnector(connector);
        server.setHandler(
                new Handler.Abstract() {
                    @Override
                    public boolean handle(
                            org.eclipse.jetty.server.Request request,
                            Response response,
                            Callback callback) {
                        HttpEmulator.this.handle(request, response, callback);
                        return true;
                    }
                });
        try {
            server.start();
        } catch (Exception e) {
            delays.shutdownNow();
            throw new IOException(
                    "cannot start the " + vendor.wireName() + " emulator on port " + port, e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, "pushline-" + name);
            t.setDaemon(true);
            return t;
        };
    }

    public Vendor vendor() {
        return vendor;
    }

    /** The base URL of both its token and its send API. */
    public String url() {
        return "http://127.0.0.1:" + connector.getLocalPort();
    }

    public Behaviour behaviour() {
        return behaviour;
    }

    /** Changes the behaviour from the next call on (a quota run, a recovery). */
    public void behave(Behaviour b) {
        synchronized (this) {
            // a new quota starts with its burst available
            bucket = Math.max(b.quotaPerSecond() / 10, 1);
            bucketAt = System.nanoTime();
        }
        this.behaviour = b;
    }

    protected abstract Reply answer(Request r);

    private void handle(
            org.eclipse.jetty.server.Request request, Response response, Callback callback) {
        Reply reply;
        try {
            Map<String, String> headers = new LinkedHashMap<>();
            for (HttpField f : request.getHeaders()) {
                headers.merge(f.getLowerCaseName(), f.getValue(), (a, b) -> a + "," + b);
            }
            // A blocking read: the bodies are small, and asStringAsync measured slower (bench
            // gateway 4,541-5,007 sends/s and ~170 resends against 5,503 and 20, same hour).
            String body = Content.Source.asString(request, StandardCharsets.UTF_8);
            if (body.length() > 4 << 20) {
                body = body.substring(0, 4 << 20);
            }
            Request r = new Request(request.getHttpURI().getPath(), headers, body);
            try {
                reply = answer(r);
            } catch (RuntimeException e) {
                reply =
                        Reply.json(
                                400,
                                Map.of("error", "bad request: " + e.getClass().getSimpleName()));
            }
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
            return;
        }
        long delay = behaviour.latencyMs();
        Reply out = reply;
        if (delay > 0) {
            delays.schedule(() -> write(response, out, callback), delay, TimeUnit.MILLISECONDS);
        } else {
            write(response, out, callback);
        }
    }

    private static void write(Response response, Reply r, Callback callback) {
        response.setStatus(r.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=UTF-8");
        r.headers().forEach((k, v) -> response.getHeaders().put(k, v));
        Content.Sink.write(response, true, r.body(), callback);
    }

    /** A new access token, valid for this emulator's send calls. */
    protected String issue() {
        String t = UUID.randomUUID().toString();
        issued.add(t);
        return t;
    }

    /** Whether a send call carries a token this emulator issued (counted when not). */
    protected boolean authorized(String token) {
        boolean ok = token != null && issued.contains(token);
        if (!ok) {
            counts.unauthorized.incrementAndGet();
        }
        return ok;
    }

    /** Whether the quota lets {@code n} sends through now; counts them when it does not. */
    protected synchronized boolean admit(int n) {
        double share = behaviour.throttleShare();
        if (share > 0 && ThreadLocalRandom.current().nextDouble() < share) {
            counts.throttled.addAndGet(n);
            return false;
        }
        double q = behaviour.quotaPerSecond();
        if (q <= 0) {
            return true;
        }
        long now = System.nanoTime();
        bucket = Math.min(Math.max(q / 10, n), bucket + q * (now - bucketAt) / 1e9);
        bucketAt = now;
        if (bucket >= n) {
            bucket -= n;
            return true;
        }
        counts.throttled.addAndGet(n);
        return false;
    }

    /** Whether this call fails with a 5xx (counted). */
    protected boolean fails() {
        if (ThreadLocalRandom.current().nextDouble() < behaviour.errorShare()) {
            counts.errors.incrementAndGet();
            return true;
        }
        return false;
    }

    /** Counts one send: false (and counted invalid) when the token is invalid. */
    protected boolean deliver(String collapseId, String token) {
        if (behaviour.invalid(token)) {
            counts.invalid.incrementAndGet();
            return false;
        }
        counts.accept(collapseId, token);
        return true;
    }

    protected Map<String, String> retryAfter() {
        return Map.of("Retry-After", String.valueOf(behaviour.retryAfterSeconds()));
    }

    protected static String bearer(Request r) {
        String a = r.header("Authorization");
        return a != null && a.startsWith("Bearer ") ? a.substring(7) : null;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // stopping anyway
        }
        delays.shutdownNow();
    }
}
