package io.pushline.serve;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.pushline.inbox.InboxStore;
import io.pushline.schema.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API for app backends, on Javalin (Jetty): JSON in and out, a 400 naming the parameter
 * for bad input, 503 when a store cannot answer, never a 500 for any input, keep-alive (Jetty's),
 * request metrics at {@code /metrics}.
 *
 * <ul>
 *   <li>{@code GET /v1/reminders/{uid}}: the frozen reminder tasks {@code uid} subscribed to that
 *       fire within the pull window (taskId, fireAt, title, body); a pull is recorded for each, so
 *       the dispatch job does not push those reminders.
 *   <li>{@code GET /v1/inbox/{uid}}, {@code GET /v1/inbox/{uid}/messages/{msgId}}, {@code POST
 *       /v1/inbox/{uid}/read}: the inbox ({@link InboxApi}).
 *   <li>{@code GET /health}: 200 while the server runs.
 * </ul>
 */
public final class Server implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Server.class);

    /** Longest uid accepted, as the input topics. */
    static final int MAX_UID = 256;

    static final String STORE_DID_NOT_ANSWER = "the store did not answer; try again";

    private final Javalin app;
    private final RequestMetrics metrics = new RequestMetrics();
    private final List<Supplier<String>> more = new CopyOnWriteArrayList<>();
    private final Builder parts;

    /** What a server is made of; see {@link #builder}. */
    public static final class Builder {
        private ReminderStore reminders;
        private InboxStore inbox;
        private ReadLog readLog;
        private LongSupplier clock = System::currentTimeMillis;
        private Duration pullMargin = Duration.ofSeconds(2);
        private Duration pullWindow = Duration.ofHours(24);
        private AppKeys keys;
        private int appRate = 1_000;
        private ConsoleAccess access;
        private ConsoleApi console;
        private LineLog lines;
        private Idempotency idempotency;
        private PushStatusApi.Source status;
        private java.nio.file.Path keystore;
        private String keystorePassword;

        private Builder() {}

        /**
         * Serve HTTPS only, with the key and certificate of a PKCS#12 (or JKS) {@code keystore};
         * the console's cookie is then marked Secure.
         */
        public Builder tls(java.nio.file.Path keystore, String password) {
            this.keystore = keystore;
            this.keystorePassword = password;
            return this;
        }

        /** The reminders the pull lists and tasks are read from; required. */
        public Builder reminders(ReminderStore reminders) {
            this.reminders = reminders;
            return this;
        }

        /**
         * The inboxes, and where reads marked over HTTP are told onwards (for the receipts; null:
         * nowhere). Without: no inbox API.
         */
        public Builder inbox(InboxStore inbox, ReadLog readLog) {
            this.inbox = inbox;
            this.readLog = readLog;
            return this;
        }

        public Builder clock(LongSupplier clock) {
            this.clock = clock;
            return this;
        }

        public Builder pull(Duration margin, Duration window) {
            this.pullMargin = margin;
            this.pullWindow = window;
            return this;
        }

        /** The app keys; required: the app API is never open. */
        public Builder appKeys(AppKeys keys) {
            this.keys = keys;
            return this;
        }

        /** One app key named {@code app} with every scope. */
        public Builder appKey(String secret) {
            return appKeys(AppKeys.single("app", secret));
        }

        /** Calls a second each app key may make (serve.app-rate). */
        public Builder appRate(int perSecond) {
            this.appRate = perSecond;
            return this;
        }

        /**
         * Where the write calls' lines are committed, and the idempotency keys (null: the header is
         * refused). Without: no write calls.
         */
        Builder writes(LineLog lines, Idempotency idempotency) {
            this.lines = lines;
            this.idempotency = idempotency;
            return this;
        }

        /**
         * The write calls on Kafka ({@code kafka}: the clients' properties), their lines committed
         * in transactions, and idempotency keys in HBase's {@code api_idempotency}.
         */
        public Builder kafkaWrites(
                java.util.Properties kafka,
                org.apache.hadoop.hbase.client.Connection hbase,
                String namespace)
                throws IOException {
            return writes(new KafkaLineLog(kafka), new Idempotency(hbase, namespace, 10_000));
        }

        /** What {@code GET /v1/push/{msgId}} reads. Without: no such call. */
        Builder pushStatus(PushStatusApi.Source status) {
            this.status = status;
            return this;
        }

        /** {@code GET /v1/push/{msgId}} from the receipts tables in HBase. */
        public Builder receipts(org.apache.hadoop.hbase.client.Connection hbase, String namespace)
                throws IOException {
            return pushStatus(PushStatusApi.hbase(hbase, namespace));
        }

        Builder console(ConsoleAccess access, ConsoleApi console) {
            this.access = access;
            this.console = console;
            return this;
        }

        /**
         * The console and its API, behind {@code consoleToken}.
         *
         * @param hbase the segments, the dictionary, the saved audiences and the receipts' metrics
         */
        public Builder console(
                String consoleToken,
                org.apache.hadoop.hbase.client.Connection hbase,
                String namespace,
                DryRunner dryRun)
                throws IOException {
            ConsoleAccess a = new ConsoleAccess(consoleToken);
            return console(
                    a,
                    new ConsoleApi(
                            a,
                            new ConsoleAudiences(hbase, namespace),
                            dryRun,
                            hbase,
                            namespace,
                            clock));
        }

        public Server build() {
            if (reminders == null) {
                throw new IllegalStateException("a server needs its reminder store");
            }
            if (keys == null) {
                throw new IllegalStateException("a server needs app keys: the API is never open");
            }
            return new Server(this);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    private Server(Builder b) {
        this.parts = b;
        InboxApi inboxApi = b.inbox == null ? null : new InboxApi(b.inbox, b.readLog, b.clock);
        AppAccess appAccess = new AppAccess(b.keys, new RateLimits(b.appRate, System::nanoTime));
        WriteApi writeApi = b.lines == null ? null : new WriteApi(b.lines, b.idempotency, b.clock);
        this.app =
                Javalin.create(
                        cfg -> {
                            PushFastPath pushes =
                                    writeApi == null
                                            ? null
                                            : new PushFastPath(writeApi, appAccess, metrics);
                            if (inboxApi != null || pushes != null) {
                                InboxPageHandler front =
                                        new InboxPageHandler(inboxApi, appAccess, metrics, pushes);
                                cfg.jetty.modifyServer(s -> s.setHandler(front));
                            }
                            if (b.keystore != null) {
                                // the only connector: nothing answers in clear text
                                cfg.jetty.addConnector(
                                        (server, http) ->
                                                Tls.connector(
                                                        server,
                                                        http,
                                                        b.keystore,
                                                        b.keystorePassword,
                                                        listenHost,
                                                        listenPort));
                            }
                            cfg.startup.showJavalinBanner = false;
                            cfg.startup.showOldJavalinVersionWarning = false;
                            // answers are a few KB for callers in the same data center: gzip
                            // (Javalin's default above 1,500 bytes) cost more CPU than it saved
                            cfg.http.compressionStrategy = CompressionStrategy.NONE;
                            cfg.http.maxRequestSize = AppAccess.MAX_BODY;
                            cfg.routes.before(appAccess::check);
                            List<Api> apis = new ArrayList<>();
                            if (b.console != null) {
                                apis.add(b.console);
                            }
                            apis.add(
                                    new ReminderApi(
                                            b.reminders,
                                            b.clock,
                                            b.pullMargin.toMillis(),
                                            b.pullWindow.toMillis()));
                            if (inboxApi != null) {
                                apis.add(inboxApi);
                            }
                            if (writeApi != null) {
                                apis.add(writeApi);
                            }
                            if (b.status != null) {
                                apis.add(new PushStatusApi(b.status));
                            }
                            apis.add(new OpenApi());
                            apis.add(
                                    r -> {
                                        r.get("/health", ctx -> json(ctx, 200, Map.of("ok", true)));
                                        r.get(
                                                "/metrics",
                                                ctx ->
                                                        ctx.contentType(
                                                                        "text/plain;"
                                                                                + " version=0.0.4")
                                                                .result(prometheus()));
                                    });
                            apis.forEach(api -> api.routes(cfg.routes));
                            errors(cfg.routes);
                            cfg.requestLogger.http(
                                    (ctx, ms) ->
                                            metrics.record(route(ctx), ctx.status().getCode(), ms));
                        });
    }

    /** Every error as {@code {"error","field"}}, never a stack trace. */
    private static void errors(io.javalin.config.RoutesConfig r) {
        r.exception(BadRequest.class, (e, ctx) -> error(ctx, 400, e.getMessage(), e.field));
        r.exception(
                Refused.class,
                (e, ctx) -> {
                    if (e.retryAfterSeconds > 0) {
                        ctx.header("Retry-After", Long.toString(e.retryAfterSeconds));
                    }
                    error(ctx, e.status, e.getMessage(), e.field);
                });
        r.exception(
                HttpResponseException.class,
                (e, ctx) -> error(ctx, e.getStatus(), e.getMessage(), null));
        r.exception(NotFound.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
        r.exception(ConsoleApi.Unauthorized.class, (e, ctx) -> error(ctx, 401, e.getMessage()));
        r.exception(
                IOException.class,
                (e, ctx) -> {
                    LOG.warn("{} {}: {}", ctx.method(), ctx.path(), e.toString());
                    error(ctx, 503, STORE_DID_NOT_ANSWER);
                });
        r.exception(
                Exception.class,
                (e, ctx) -> {
                    LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
                    error(ctx, 500, "internal error");
                });
        r.error(
                404,
                ctx -> {
                    // a handler's own 404 (an unknown msgId) keeps its message
                    if (ctx.attribute(ANSWERED) == null) {
                        error(ctx, 404, "no such path: " + ctx.path());
                    }
                });
    }

    /** Adds figures (Prometheus' text format) to what {@code /metrics} prints. */
    public void addMetrics(Supplier<String> more) {
        this.more.add(more);
    }

    private String prometheus() {
        StringBuilder out = new StringBuilder(metrics.prometheus());
        for (Supplier<String> m : more) {
            out.append(m.get());
        }
        return out.toString();
    }

    /** Starts listening; returns the port (useful with 0). */
    public int start(String host, int port) {
        if (parts.keystore == null) {
            app.start(host, port);
            return app.port();
        }
        listenHost = host;
        listenPort = port;
        app.start();
        return Tls.port(app);
    }

    private volatile String listenHost;
    private volatile int listenPort;

    /** A path parameter that names a uid or msgId, checked: a 400 naming it otherwise. */
    static String id(Context ctx, String name) {
        return checkId(name, ctx.pathParam(name));
    }

    /** {@code id}, checked as a uid or msgId: a 400 naming it otherwise. */
    static String checkId(String name, String id) {
        if (id.isBlank()) {
            throw new BadRequest(name + ": must not be empty");
        }
        if (id.length() > MAX_UID) {
            throw new BadRequest(name + ": longer than " + MAX_UID + " characters");
        }
        for (int i = 0; i < id.length(); i++) {
            if (Character.isISOControl(id.charAt(i))) {
                throw new BadRequest(name + ": control characters are not allowed");
            }
        }
        return id;
    }

    /** The route's pattern, not the path: uids must not become metric labels. */
    private static String route(Context ctx) {
        try {
            return ctx.endpoint().path;
        } catch (RuntimeException e) {
            return "unmatched";
        }
    }

    static void json(Context ctx, int status, Object body) {
        jsonText(ctx, status, Json.write(body));
    }

    static void jsonText(Context ctx, int status, String json) {
        ctx.status(status).contentType("application/json").result(json);
    }

    private static void error(Context ctx, int status, String message) {
        error(ctx, status, message, fieldOf(message));
    }

    private static final String ANSWERED = "pushline.errorAnswered";

    private static void error(Context ctx, int status, String message, String field) {
        ctx.attribute(ANSWERED, Boolean.TRUE);
        ctx.status(status).contentType("application/json").result(errorBody(message, field));
    }

    /** The body of an error answer; its field is the message's prefix ({@code uid: ...}). */
    static byte[] errorBody(String message) {
        return errorBody(message, fieldOf(message));
    }

    /** {@code {"error": message, "field": field}}, field null when no one field is at fault. */
    static byte[] errorBody(String message, String field) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        body.put("field", field);
        return Json.write(body).getBytes(StandardCharsets.UTF_8);
    }

    private static final Pattern FIELD_PREFIX = Pattern.compile("^([A-Za-z][A-Za-z0-9_.]*): ");

    /** The field a message of the form {@code NAME: what is wrong} names, or null. */
    static String fieldOf(String message) {
        Matcher m = FIELD_PREFIX.matcher(message == null ? "" : message);
        return m.find() ? m.group(1) : null;
    }

    /** Nothing there: a 404 with the message. */
    static final class NotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message);
        }
    }

    /** Bad input from the client: a 400 with the message, naming the field at fault. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String field;

        /** The field is the message's prefix: {@code uid: longer than 256 characters}. */
        BadRequest(String message) {
            this(fieldOf(message), message);
        }

        BadRequest(String field, String message) {
            super(message);
            this.field = field;
        }
    }

    /** A refused call other than bad input: its status (403, 409, 413, 415, 429, ...). */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;
        final String field;

        final long retryAfterSeconds;

        Refused(int status, String message, String field) {
            this(status, message, field, 0);
        }

        Refused(int status, String message, String field, long retryAfterSeconds) {
            super(message);
            this.status = status;
            this.field = field;
            this.retryAfterSeconds = retryAfterSeconds;
        }
    }

    @Override
    public void close() throws IOException {
        app.stop();
        if (parts.lines != null) {
            parts.lines.close();
        }
        parts.reminders.close();
        if (parts.inbox != null) {
            parts.inbox.close();
        }
        if (parts.readLog != null) {
            parts.readLog.close();
        }
        if (parts.console != null) {
            parts.console.close();
        }
    }
}
