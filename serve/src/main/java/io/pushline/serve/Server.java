package io.pushline.serve;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.pushline.inbox.InboxStore;
import io.pushline.schema.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
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

    static final String APP_TOKEN_NEEDED = "the app token is needed (Authorization: Bearer TOKEN)";
    static final String STORE_DID_NOT_ANSWER = "the store did not answer; try again";

    private final Javalin app;
    private final RequestMetrics metrics = new RequestMetrics();
    private final List<Supplier<String>> more = new CopyOnWriteArrayList<>();
    private final ReminderStore reminders;
    private final InboxStore inbox;
    private final ReadLog readLog;
    private final LongSupplier clock;
    private final ConsoleApi console;

    public Server(
            ReminderStore reminders, LongSupplier clock, Duration pullMargin, Duration pullWindow) {
        this(reminders, null, clock, pullMargin, pullWindow);
    }

    public Server(
            ReminderStore reminders,
            InboxStore inbox,
            LongSupplier clock,
            Duration pullMargin,
            Duration pullWindow) {
        this(reminders, inbox, null, clock, pullMargin, pullWindow);
    }

    /**
     * @param inbox the inboxes; null: no inbox API
     * @param readLog where reads marked over HTTP are told onwards (for the receipts); null:
     *     nowhere
     */
    public Server(
            ReminderStore reminders,
            InboxStore inbox,
            ReadLog readLog,
            LongSupplier clock,
            Duration pullMargin,
            Duration pullWindow) {
        this(reminders, inbox, readLog, clock, pullMargin, pullWindow, null, null);
    }

    /**
     * @param access the tokens; null: no console, app APIs open
     * @param console the console and its API; null: none
     */
    Server(
            ReminderStore reminders,
            InboxStore inbox,
            ReadLog readLog,
            LongSupplier clock,
            Duration pullMargin,
            Duration pullWindow,
            ConsoleAccess access,
            ConsoleApi console) {
        this.reminders = reminders;
        this.inbox = inbox;
        this.readLog = readLog;
        this.clock = clock;
        this.console = console;
        InboxApi inboxApi = inbox == null ? null : new InboxApi(inbox, readLog, clock);
        this.app =
                Javalin.create(
                        cfg -> {
                            if (inboxApi != null) {
                                InboxPageHandler pages =
                                        new InboxPageHandler(
                                                inboxApi,
                                                access == null ? h -> true : access::app,
                                                metrics);
                                cfg.jetty.modifyServer(s -> s.setHandler(pages));
                            }
                            cfg.startup.showJavalinBanner = false;
                            cfg.startup.showOldJavalinVersionWarning = false;
                            // answers are a few KB for callers in the same data center: gzip
                            // (Javalin's default above 1,500 bytes) cost more CPU than it saved
                            cfg.http.compressionStrategy = CompressionStrategy.NONE;
                            if (access != null) {
                                cfg.routes.before(
                                        ctx -> {
                                            if (isAppPath(ctx.path()) && !access.app(ctx)) {
                                                throw new ConsoleApi.Unauthorized(APP_TOKEN_NEEDED);
                                            }
                                        });
                            }
                            List<Api> apis = new ArrayList<>();
                            if (console != null) {
                                apis.add(console);
                            }
                            apis.add(
                                    new ReminderApi(
                                            reminders,
                                            clock,
                                            pullMargin.toMillis(),
                                            pullWindow.toMillis()));
                            if (inboxApi != null) {
                                apis.add(inboxApi);
                            }
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
                            cfg.routes.exception(
                                    BadRequest.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
                            cfg.routes.exception(
                                    NotFound.class, (e, ctx) -> error(ctx, 404, e.getMessage()));
                            cfg.routes.exception(
                                    ConsoleApi.Unauthorized.class,
                                    (e, ctx) -> error(ctx, 401, e.getMessage()));
                            cfg.routes.exception(
                                    IOException.class,
                                    (e, ctx) -> {
                                        LOG.warn(
                                                "{} {}: {}",
                                                ctx.method(),
                                                ctx.path(),
                                                e.toString());
                                        error(ctx, 503, STORE_DID_NOT_ANSWER);
                                    });
                            cfg.routes.exception(
                                    Exception.class,
                                    (e, ctx) -> {
                                        LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
                                        error(ctx, 500, "internal error");
                                    });
                            cfg.routes.error(
                                    404, ctx -> error(ctx, 404, "no such path: " + ctx.path()));
                            cfg.requestLogger.http(
                                    (ctx, ms) ->
                                            metrics.record(route(ctx), ctx.status().getCode(), ms));
                        });
    }

    /**
     * A server with the console and its API (and the app APIs behind {@code appToken} when one is
     * given).
     *
     * @param consoleToken required
     * @param hbase the segments, the dictionary, the saved audiences and the receipts' metrics
     */
    public static Server withConsole(
            ReminderStore reminders,
            InboxStore inbox,
            ReadLog readLog,
            LongSupplier clock,
            Duration pullMargin,
            Duration pullWindow,
            String consoleToken,
            String appToken,
            org.apache.hadoop.hbase.client.Connection hbase,
            String namespace,
            DryRunner dryRun)
            throws IOException {
        ConsoleAccess access = new ConsoleAccess(consoleToken, appToken);
        ConsoleApi console =
                new ConsoleApi(
                        access,
                        new ConsoleAudiences(hbase, namespace),
                        dryRun,
                        hbase,
                        namespace,
                        clock);
        return new Server(
                reminders, inbox, readLog, clock, pullMargin, pullWindow, access, console);
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
        app.start(host, port);
        return app.port();
    }

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
        ctx.status(status).contentType("application/json").result(Json.write(body));
    }

    private static void error(Context ctx, int status, String message) {
        ctx.status(status).contentType("application/json").result(errorBody(message));
    }

    /** The body of an error answer. */
    static byte[] errorBody(String message) {
        return Json.write(Map.of("error", message)).getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isAppPath(String path) {
        return path.startsWith("/v1/inbox/") || path.startsWith("/v1/reminders/");
    }

    /** Nothing there: a 404 with the message. */
    static final class NotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message);
        }
    }

    /** Bad input from the client: a 400 with the message. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }

    @Override
    public void close() throws IOException {
        app.stop();
        reminders.close();
        if (inbox != null) {
            inbox.close();
        }
        if (readLog != null) {
            readLog.close();
        }
        if (console != null) {
            console.close();
        }
    }
}
