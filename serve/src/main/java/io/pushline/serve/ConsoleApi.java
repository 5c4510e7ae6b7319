package io.pushline.serve;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import io.pushline.audience.SavedAudienceStore;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.IdSet;
import io.pushline.receipts.report.CampaignReport;
import io.pushline.receipts.report.ReportPage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.client.Connection;
import org.roaringbitmap.RoaringBitmap;

/**
 * The strategists' console ({@code /console}) and the JSON API under it ({@code
 * /v1/audiences/...}): segments, live expression checks with exact sizes and the explain tree,
 * overlaps, saved audiences with their history, the gate-aware dry run and the funnel of a campaign
 * that used an audience. Everything needs the console token ({@link ConsoleAccess}).
 */
final class ConsoleApi implements Api {
    private static final Pattern MSG_TYPE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private final ConsoleAccess access;
    private final LoginThrottle throttle = new LoginThrottle();
    private final ConsoleAudiences audiences;
    private final DryRunner dryRun;
    private final Connection hbase;
    private final String namespace;
    private final LongSupplier clock;

    ConsoleApi(
            ConsoleAccess access,
            ConsoleAudiences audiences,
            DryRunner dryRun,
            Connection hbase,
            String namespace,
            LongSupplier clock) {
        this.access = access;
        this.audiences = audiences;
        this.dryRun = dryRun;
        this.hbase = hbase;
        this.namespace = namespace;
        this.clock = clock;
    }

    @Override
    public void routes(RoutesConfig r) {
        r.get("/console", this::page);
        r.get("/console/", this::page);
        r.post("/console/login", this::login);
        r.post("/console/logout", this::logout);
        r.get("/console/assets/{file}", this::asset);
        r.get("/console/campaigns/{msgId}", this::report);
        r.get("/v1/audiences/segments", this::segments);
        r.get("/v1/audiences/uids/{uid}", this::memberships);
        r.post("/v1/audiences/check", this::check);
        r.post("/v1/audiences/overlap", this::overlap);
        r.post("/v1/audiences/dry-run", this::dryRun);
        r.get("/v1/audiences/saved", this::savedList);
        r.get("/v1/audiences/saved/{name}", this::savedOne);
        r.put("/v1/audiences/saved/{name}", this::save);
    }

    /** Thrown by {@link #session} for a caller without a valid token or session. */
    static final class Unauthorized extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unauthorized() {
            this(
                    "the console token is needed (Authorization: Bearer TOKEN, or log in at"
                            + " /console)");
        }

        Unauthorized(String message) {
            super(message);
        }
    }

    private ConsoleAccess.Session session(Context ctx) {
        ConsoleAccess.Session s = access.console(ctx, clock.getAsLong());
        if (s == null) {
            throw new Unauthorized();
        }
        return s;
    }

    private void page(Context ctx) throws IOException {
        boolean in = access.console(ctx, clock.getAsLong()) != null;
        html(ctx, in ? 200 : 401, resource(in ? "index.html" : "login.html"));
    }

    private void login(Context ctx) throws IOException {
        String user = ctx.formParam("name");
        user = user == null || user.isBlank() ? "console" : user.strip();
        if (user.length() > SavedAudienceStore.MAX_SAVED_BY) {
            user = user.substring(0, SavedAudienceStore.MAX_SAVED_BY);
        }
        long now = clock.getAsLong();
        String address = ctx.ip();
        long wait = throttle.waitMs(address, now);
        if (wait > 0) {
            ctx.header("Retry-After", Long.toString((wait + 999) / 1000));
            html(
                    ctx,
                    429,
                    resource("login.html")
                            .replace(
                                    "<!--error-->",
                                    "<p class=\"error\" id=\"login-error\">Too many wrong tokens"
                                            + " from here: try again in "
                                            + (wait + 999) / 1000
                                            + " s.</p>"));
            return;
        }
        String session = access.login(ctx.formParam("token"), user, now);
        if (session == null) {
            throttle.failed(address, now);
            html(
                    ctx,
                    401,
                    resource("login.html")
                            .replace(
                                    "<!--error-->",
                                    "<p class=\"error\" id=\"login-error\">That is not the console"
                                            + " token.</p>"));
            return;
        }
        throttle.succeeded(address);
        ctx.cookie(
                new Cookie(
                        ConsoleAccess.COOKIE,
                        session,
                        "/",
                        (int) (ConsoleAccess.SESSION_MS / 1000),
                        // over TLS (serve.tls.keystore) the browser sends it back over TLS only
                        ctx.req().isSecure(),
                        true,
                        null,
                        SameSite.STRICT));
        ctx.redirect("/console");
    }

    private void logout(Context ctx) {
        access.logout(ctx);
        ctx.removeCookie(ConsoleAccess.COOKIE, "/");
        ctx.redirect("/console");
    }

    private void asset(Context ctx) throws IOException {
        session(ctx);
        String file = ctx.pathParam("file");
        String type =
                file.equals("console.js")
                        ? "text/javascript; charset=utf-8"
                        : file.equals("console.css") ? "text/css; charset=utf-8" : null;
        if (type == null) {
            throw new Server.NotFound("no such asset: " + file);
        }
        ctx.status(200).contentType(type).result(resource(file));
    }

    private void report(Context ctx) throws IOException {
        session(ctx);
        String msgId = Server.id(ctx, "msgId");
        CampaignReport r = CampaignReport.load(hbase, namespace, msgId);
        if (r.isEmpty()) {
            throw new Server.NotFound(
                    "no metrics for campaign '"
                            + msgId
                            + "' yet (is the receipts job running, and has the minute closed?)");
        }
        html(ctx, 200, ReportPage.html(r));
    }

    private void segments(Context ctx) throws IOException {
        session(ctx);
        String q = ctx.queryParam("q");
        String needle = q == null ? "" : q.strip().toLowerCase(Locale.ROOT);
        long now = clock.getAsLong();
        List<Map<String, Object>> out = new ArrayList<>();
        for (SegmentStore.Info i : audiences.list()) {
            if (!needle.isEmpty()
                    && !i.name().toLowerCase(Locale.ROOT).contains(needle)
                    && !i.source().toLowerCase(Locale.ROOT).contains(needle)) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", i.name());
            m.put("size", i.cardinality());
            m.put("version", i.version());
            m.put("builtAt", i.builtAt());
            m.put("ageMs", Math.max(0, now - i.builtAt()));
            m.put("source", i.source());
            out.add(m);
        }
        Server.json(ctx, 200, Map.of("segments", out));
    }

    private void memberships(Context ctx) throws IOException {
        session(ctx);
        String uid = Server.id(ctx, "uid");
        List<String> in = audiences.memberships(uid);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uid", uid);
        m.put("known", in != null);
        m.put("segments", in == null ? List.of() : in);
        Server.json(ctx, 200, m);
    }

    private void check(Context ctx) throws IOException {
        session(ctx);
        String expression = expression(InboxApi.body(ctx), "expression");
        ConsoleAudiences.Evaluated e;
        try {
            e = audiences.evaluate(expression);
        } catch (ExpressionException x) {
            Server.json(ctx, 200, Map.of("ok", false, "error", problem(x)));
            return;
        }
        List<Map<String, Object>> tree = new ArrayList<>();
        for (AudienceEvaluator.Node n : e.evaluator().explainNodes(e.expr())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lead", n.lead());
            m.put("label", n.label());
            m.put("size", n.size());
            tree.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ok", true);
        m.put("expression", expression);
        m.put("canonical", e.expr().toString());
        m.put("size", e.ids().cardinality());
        m.put("explain", tree);
        Server.json(ctx, 200, m);
    }

    private void overlap(Context ctx) throws IOException {
        session(ctx);
        JsonNode body = InboxApi.body(ctx);
        String a = expression(body, "a");
        String b = expression(body, "b");
        IdSet x;
        IdSet y;
        try {
            x = audiences.evaluate(a).ids();
        } catch (ExpressionException e) {
            Server.json(ctx, 200, Map.of("ok", false, "which", "a", "error", problem(e)));
            return;
        }
        try {
            y = audiences.evaluate(b).ids();
        } catch (ExpressionException e) {
            Server.json(ctx, 200, Map.of("ok", false, "which", "b", "error", problem(e)));
            return;
        }
        RoaringBitmap xa = x.unwrap();
        RoaringBitmap yb = y.unwrap();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ok", true);
        m.put("a", xa.getLongCardinality());
        m.put("b", yb.getLongCardinality());
        m.put("both", RoaringBitmap.andCardinality(xa, yb));
        m.put("onlyA", RoaringBitmap.andNotCardinality(xa, yb));
        m.put("onlyB", RoaringBitmap.andNotCardinality(yb, xa));
        m.put("either", RoaringBitmap.orCardinality(xa, yb));
        Server.json(ctx, 200, m);
    }

    private void dryRun(Context ctx) throws Exception {
        session(ctx);
        JsonNode body = InboxApi.body(ctx);
        String expression;
        if (body.hasNonNull("audience")) {
            SavedAudienceStore.Version v = audiences.saved().current(text(body, "audience", 64));
            if (v == null) {
                throw new Server.BadRequest("audience: no saved audience of that name");
            }
            expression = v.expression;
        } else {
            expression = expression(body, "expression");
        }
        String msgType = text(body, "msgType", 64);
        if (!MSG_TYPE.matcher(msgType).matches()) {
            throw new Server.BadRequest("msgType: 1-64 letters, digits, '_', '-' or '.'");
        }
        try {
            audiences.evaluate(expression);
        } catch (ExpressionException e) {
            Server.json(ctx, 200, Map.of("ok", false, "error", problem(e)));
            return;
        }
        String answer;
        try {
            answer = dryRun.run(expression, msgType);
        } catch (DryRunner.DryRunException e) {
            Server.json(ctx, 200, Map.of("ok", false, "error", Map.of("message", e.getMessage())));
            return;
        }
        ctx.status(200).contentType("application/json").result(answer);
    }

    private void savedList(Context ctx) throws IOException {
        session(ctx);
        List<Map<String, Object>> out = new ArrayList<>();
        for (SavedAudienceStore.Saved s : audiences.saved().list()) {
            Map<String, Object> m = new LinkedHashMap<>();
            SavedAudienceStore.Version v = s.current();
            m.put("name", s.name());
            m.put("version", v.version);
            m.put("expression", v.expression);
            m.put("savedBy", v.savedBy);
            m.put("savedAt", v.savedAt);
            m.put("size", v.size);
            m.put("campaigns", s.campaigns().size());
            out.add(m);
        }
        Server.json(ctx, 200, Map.of("audiences", out));
    }

    private void savedOne(Context ctx) throws IOException {
        session(ctx);
        String name = ctx.pathParam("name");
        SavedAudienceStore.Saved s = audiences.saved().get(name);
        if (s == null) {
            throw new Server.NotFound("no saved audience '" + shorten(name) + "'");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("versions", s.versions());
        m.put("campaigns", s.campaigns());
        Server.json(ctx, 200, m);
    }

    private void save(Context ctx) throws IOException {
        ConsoleAccess.Session who = session(ctx);
        String name = ctx.pathParam("name");
        try {
            SavedAudienceStore.checkName(name);
        } catch (IllegalArgumentException e) {
            throw new Server.BadRequest(e.getMessage());
        }
        String expression = expression(InboxApi.body(ctx), "expression");
        ConsoleAudiences.Evaluated e;
        try {
            e = audiences.evaluate(expression);
        } catch (ExpressionException x) {
            Map<String, Object> m = new LinkedHashMap<>(problem(x));
            m.put("error", "expression: " + x.getMessage());
            Server.json(ctx, 400, m);
            return;
        }
        SavedAudienceStore.Version v =
                audiences
                        .saved()
                        .save(
                                name,
                                expression,
                                who.user(),
                                e.ids().cardinality(),
                                clock.getAsLong());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("version", v.version);
        m.put("expression", v.expression);
        m.put("savedBy", v.savedBy);
        m.put("savedAt", v.savedAt);
        m.put("size", v.size);
        Server.json(ctx, 200, m);
    }

    void close() throws IOException {
        audiences.close();
    }

    private static Map<String, Object> problem(ExpressionException e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("message", e.getMessage());
        m.put("column", e.column());
        m.put("report", e.report());
        m.put("suggestions", e.suggestions());
        return m;
    }

    private static String expression(JsonNode body, String field) {
        return text(body, field, SavedAudienceStore.MAX_EXPRESSION);
    }

    private static String text(JsonNode body, String field, int max) {
        JsonNode n = body.get(field);
        if (n == null || !n.isTextual()) {
            throw new Server.BadRequest(field + ": a string is needed");
        }
        String s = n.asText();
        if (s.length() > max) {
            throw new Server.BadRequest(field + ": longer than " + max + " characters");
        }
        return s;
    }

    private static String shorten(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    private static void html(Context ctx, int status, String page) {
        ctx.status(status)
                .contentType("text/html; charset=utf-8")
                .header(
                        "Content-Security-Policy",
                        "default-src 'self'; style-src 'self' 'unsafe-inline'")
                .header("X-Frame-Options", "DENY")
                .result(page);
    }

    private static String resource(String file) throws IOException {
        try (InputStream in = ConsoleApi.class.getResourceAsStream("/console/" + file)) {
            if (in == null) {
                throw new Server.NotFound("no such asset: " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
