package io.pushline.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.pushline.format.ReminderParser;
import io.pushline.format.WireParser;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls of the app API that write: a push, a device's bind, unbind and switch, a reminder
 * task's create, update and cancel, a subscriber, a pull. Each becomes exactly the line its topic
 * takes, checked by the parser the job itself uses (a line the job would send to its dead letters
 * is a 400 here, naming the field), and is answered only once that line is committed ({@link
 * LineLog}); a call that fails writes nothing.
 */
final class WriteApi implements Api {
    private static final Logger LOG = LoggerFactory.getLogger(WriteApi.class);
    private static final Pattern QUOTED_FIELD = Pattern.compile("'([A-Za-z][A-Za-z0-9_.]*)'");
    static final String NOT_WRITTEN = "the line could not be committed; nothing was written";

    private final LineLog lines;
    private final Idempotency idempotency;
    private final LongSupplier clock;
    private final WireParser wire = new WireParser(true);

    /**
     * @param idempotency where Idempotency-Keys are held; null: the header is refused
     */
    WriteApi(LineLog lines, Idempotency idempotency, LongSupplier clock) {
        this.lines = lines;
        this.idempotency = idempotency;
        this.clock = clock;
    }

    @Override
    public void routes(RoutesConfig r) {
        r.post("/v1/push", this::push);
        r.put("/v1/devices/{deviceId}", this::bind);
        r.delete("/v1/devices/{deviceId}", this::unbind);
        r.put("/v1/devices/{deviceId}/switch", this::deviceSwitch);
        r.post("/v1/reminders/tasks", this::createTask);
        r.put("/v1/reminders/tasks/{taskId}", ctx -> task(ctx, "update"));
        r.delete("/v1/reminders/tasks/{taskId}", ctx -> task(ctx, "cancel"));
        r.put(
                "/v1/reminders/tasks/{taskId}/subscribers/{uid}",
                ctx -> subscription(ctx, "subscribe"));
        r.delete(
                "/v1/reminders/tasks/{taskId}/subscribers/{uid}",
                ctx -> subscription(ctx, "unsubscribe"));
        r.post("/v1/reminders/{uid}/pull", this::pull);
    }

    private void push(Context ctx) throws IOException {
        Prepared p = preparePush(ctx.bodyAsBytes());
        write(ctx, p.status(), p.answer(), p.lines(), true);
    }

    /** What a call answers and writes once its lines are committed. */
    record Prepared(int status, String answer, List<LineLog.Line> lines) {}

    /**
     * A push's line and answer from its body: a 400 ({@link Server.BadRequest}) naming the field
     * for a body the dispatch job would not take. Also used by {@link InboxPageHandler}'s fast
     * path, which answers plain pushes without the servlet layer.
     */
    Prepared preparePush(byte[] raw) {
        ObjectNode body = body(raw);
        JsonNode type = body.get("type");
        if (type != null && !"push".equals(type.asText())) {
            throw new Server.BadRequest("type", "type: a push has no type, or \"push\"");
        }
        long ts = tsOf(body);
        String msgId = body.hasNonNull("msgId") ? null : "m-" + UUID.randomUUID();
        ObjectNode line = Json.MAPPER.createObjectNode().put("ts", ts).put("type", "push");
        if (msgId != null) {
            line.put("msgId", msgId);
        }
        body.fields()
                .forEachRemaining(
                        f -> {
                            if (!f.getKey().equals("ts") && !f.getKey().equals("type")) {
                                line.set(f.getKey(), f.getValue());
                            }
                        });
        String text = line.toString();
        checkWire(text);
        String id = line.get("msgId").asText();
        Map<String, Object> answer = answer("msgId", id, "ts", ts);
        return new Prepared(
                202, Json.write(answer), List.of(new LineLog.Line(Topics.PUSH_REQUESTS, id, text)));
    }

    /** The log the lines go to. */
    LineLog lines() {
        return lines;
    }

    private void bind(Context ctx) throws IOException {
        String deviceId = Server.id(ctx, "deviceId");
        ObjectNode body = body(ctx);
        long ts = clock.getAsLong();
        ObjectNode line =
                Json.MAPPER
                        .createObjectNode()
                        .put("ts", ts)
                        .put("type", "bind")
                        .put("deviceId", deviceId);
        for (String f : List.of("uid", "vendor", "token", "tz", "pushEnabled")) {
            if (body.has(f)) {
                line.set(f, body.get(f));
            }
        }
        device(ctx, deviceId, ts, line);
    }

    private void unbind(Context ctx) throws IOException {
        String deviceId = Server.id(ctx, "deviceId");
        long ts = clock.getAsLong();
        device(
                ctx,
                deviceId,
                ts,
                Json.MAPPER
                        .createObjectNode()
                        .put("ts", ts)
                        .put("type", "unbind")
                        .put("deviceId", deviceId));
    }

    private void deviceSwitch(Context ctx) throws IOException {
        String deviceId = Server.id(ctx, "deviceId");
        ObjectNode body = body(ctx);
        JsonNode enabled = body.get("enabled");
        if (enabled == null || !enabled.isBoolean()) {
            throw new Server.BadRequest("enabled", "enabled: must be true or false");
        }
        long ts = clock.getAsLong();
        device(
                ctx,
                deviceId,
                ts,
                Json.MAPPER
                        .createObjectNode()
                        .put("ts", ts)
                        .put("type", "switch")
                        .put("deviceId", deviceId)
                        .put("enabled", enabled.booleanValue()));
    }

    private void device(Context ctx, String deviceId, long ts, ObjectNode line) throws IOException {
        String text = line.toString();
        checkWire(text);
        Map<String, Object> answer = answer("deviceId", deviceId, "ts", ts);
        write(
                ctx,
                200,
                answer,
                List.of(new LineLog.Line(Topics.DEVICE_EVENTS, deviceId, text)),
                false);
    }

    private void createTask(Context ctx) throws IOException {
        ObjectNode body = body(ctx);
        String taskId;
        if (body.hasNonNull("taskId")) {
            if (!body.get("taskId").isTextual()) {
                throw new Server.BadRequest("taskId", "taskId: must be a string");
            }
            taskId = Server.checkId("taskId", body.get("taskId").textValue());
        } else {
            taskId = "t-" + UUID.randomUUID();
        }
        taskLine(ctx, taskId, "create", body, true);
    }

    private void task(Context ctx, String op) throws IOException {
        String taskId = Server.id(ctx, "taskId");
        taskLine(ctx, taskId, op, op.equals("cancel") ? null : body(ctx), false);
    }

    private void taskLine(Context ctx, String taskId, String op, ObjectNode body, boolean idem)
            throws IOException {
        long ts = clock.getAsLong();
        ObjectNode line =
                Json.MAPPER
                        .createObjectNode()
                        .put("ts", ts)
                        .put("type", "task")
                        .put("op", op)
                        .put("taskId", taskId);
        if (body != null) {
            for (String f : List.of("fireAt", "zone", "title", "body")) {
                if (body.has(f)) {
                    line.set(f, body.get(f));
                }
            }
        }
        String text = line.toString();
        checkReminder(text);
        Map<String, Object> answer = answer("taskId", taskId, "ts", ts);
        write(
                ctx,
                202,
                answer,
                List.of(new LineLog.Line(Topics.REMINDER_TASKS, taskId, text)),
                idem);
    }

    private void subscription(Context ctx, String type) throws IOException {
        String taskId = Server.id(ctx, "taskId");
        String uid = Server.id(ctx, "uid");
        long ts = clock.getAsLong();
        String text =
                Json.MAPPER
                        .createObjectNode()
                        .put("ts", ts)
                        .put("type", type)
                        .put("taskId", taskId)
                        .put("uid", uid)
                        .toString();
        checkReminder(text);
        Map<String, Object> answer = answer("taskId", taskId, "uid", uid, "ts", ts);
        write(
                ctx,
                202,
                answer,
                List.of(new LineLog.Line(Topics.REMINDER_SUBSCRIPTIONS, taskId, text)),
                false);
    }

    /** {@code POST /v1/reminders/{uid}/pull {"taskIds":[...]}}: one pull line per task. */
    private void pull(Context ctx) throws IOException {
        String uid = Server.id(ctx, "uid");
        JsonNode ids = body(ctx).get("taskIds");
        if (ids == null || !ids.isArray() || ids.isEmpty() || ids.size() > 1_000) {
            throw new Server.BadRequest(
                    "taskIds", "taskIds: must be an array of 1 to 1000 task ids");
        }
        long ts = clock.getAsLong();
        List<LineLog.Line> out = new ArrayList<>();
        List<String> taskIds = new ArrayList<>();
        for (JsonNode id : ids) {
            if (!id.isTextual()) {
                throw new Server.BadRequest("taskIds", "taskIds: each must be a string");
            }
            String taskId = Server.checkId("taskIds", id.textValue());
            String text =
                    Json.MAPPER
                            .createObjectNode()
                            .put("ts", ts)
                            .put("type", "pull")
                            .put("taskId", taskId)
                            .put("uid", uid)
                            .toString();
            checkReminder(text);
            out.add(new LineLog.Line(Topics.REMINDER_SUBSCRIPTIONS, taskId, text));
            taskIds.add(taskId);
        }
        Map<String, Object> answer = answer("uid", uid, "taskIds", taskIds, "ts", ts);
        write(ctx, 202, answer, out, false);
    }

    /** An answer's fields in order: name, value, name, value... */
    private static Map<String, Object> answer(Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return m;
    }

    /** The request's JSON object; a 400 naming {@code body} otherwise. */
    private static ObjectNode body(Context ctx) {
        return body(ctx.bodyAsBytes());
    }

    private static ObjectNode body(byte[] raw) {
        if (raw.length > AppAccess.MAX_BODY) {
            throw AppAccess.tooLarge();
        }
        JsonNode node;
        try {
            node = Json.WIRE.readTree(raw);
        } catch (IOException e) {
            throw new Server.BadRequest("body", "body: not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new Server.BadRequest("body", "body: must be a JSON object");
        }
        return (ObjectNode) node;
    }

    private long tsOf(ObjectNode body) {
        JsonNode ts = body.get("ts");
        if (ts == null || ts.isNull()) {
            return clock.getAsLong();
        }
        if (!ts.canConvertToExactIntegral() || !ts.canConvertToLong()) {
            throw new Server.BadRequest("ts", "ts: must be an integer (epoch milliseconds)");
        }
        return ts.asLong();
    }

    private void checkWire(String line) {
        refuse(wire.problem(line));
    }

    private static void checkReminder(String line) {
        refuse(ReminderParser.parse(line, 0).reason());
    }

    /** A 400 for what the job's parser said, naming the field its reason quotes. */
    private static void refuse(String reason) {
        if (reason == null) {
            return;
        }
        Matcher m = QUOTED_FIELD.matcher(reason);
        throw new Server.BadRequest(m.find() ? m.group(1) : null, reason);
    }

    /**
     * Writes {@code out} and answers {@code status answer} once it is committed. With an
     * Idempotency-Key ({@code idempotent} calls only) a repeated call gets the first answer and
     * writes nothing, another body under the same key a 409.
     */
    private void write(
            Context ctx,
            int status,
            Map<String, Object> answer,
            List<LineLog.Line> out,
            boolean idempotent)
            throws IOException {
        write(ctx, status, Json.write(answer), out, idempotent);
    }

    private void write(
            Context ctx, int status, String answer, List<LineLog.Line> out, boolean idempotent)
            throws IOException {
        String key = idempotent ? ctx.header("Idempotency-Key") : null;
        if (key == null) {
            commit(ctx, status, answer, out, null);
            return;
        }
        if (!Idempotency.valid(key)) {
            throw new Server.BadRequest(
                    "Idempotency-Key",
                    "Idempotency-Key: must be 1 to 128 printable ASCII characters");
        }
        if (idempotency == null) {
            throw new Server.Refused(503, "idempotency keys are not available here", null);
        }
        Stored first = new Stored(status, answer, out);
        Idempotency.Outcome o =
                idempotency.claim(
                        AppAccess.key(ctx).name(), key, ctx.bodyAsBytes(), Json.write(first));
        if (o instanceof Idempotency.Conflict) {
            throw new Server.Refused(
                    409,
                    "this Idempotency-Key was used with another body in the last 24 hours",
                    "Idempotency-Key");
        }
        if (o instanceof Idempotency.Replay r) {
            Stored s = Json.read(r.answer(), Stored.class);
            Server.jsonText(ctx, s.status, s.answer);
            return;
        }
        Idempotency.Claimed c = (Idempotency.Claimed) o;
        Stored s = Json.read(c.answer(), Stored.class);
        commit(ctx, s.status, s.answer, s.lines, c);
    }

    /** What an idempotent call answered and wrote, as its key's row keeps it. */
    record Stored(int status, String answer, List<LineLog.Line> lines) {}

    private void commit(
            Context ctx, int status, String answer, List<LineLog.Line> out, Idempotency.Claimed c) {
        ctx.future(
                () ->
                        lines.append(out)
                                .handle(
                                        (ok, e) -> {
                                            finish(ctx, status, answer, c, e);
                                            return null;
                                        }));
    }

    private void finish(
            Context ctx, int status, String answer, Idempotency.Claimed c, Throwable failed) {
        try {
            if (failed == null) {
                if (c != null) {
                    idempotency.done(c);
                }
                Server.jsonText(ctx, status, answer);
                return;
            }
            LOG.warn("{} {}: not committed: {}", ctx.method(), ctx.path(), failed.toString());
            if (c != null) {
                idempotency.release(c);
            }
        } catch (IOException e) {
            // the line is committed (or not) either way; the key's row keeps its pending claim,
            // which a retry takes over after Idempotency.STALE_MS
            LOG.warn("{} {}: idempotency row not updated: {}", ctx.method(), ctx.path(), e);
            if (failed == null) {
                Server.jsonText(ctx, status, answer);
                return;
            }
        }
        ctx.status(503).contentType("application/json").result(Server.errorBody(NOT_WRITTEN, null));
    }
}
