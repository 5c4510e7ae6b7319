package io.pushline.serve;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.pushline.format.InboxParser;
import io.pushline.inbox.InboxCursor;
import io.pushline.inbox.InboxStore;
import io.pushline.inbox.InboxView;
import io.pushline.inbox.Message;
import io.pushline.schema.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The inbox over HTTP: a uid's messages newest first with cursor paging and the unread count, one
 * message's state, and marking read. Reads are written to the inbox at once (not through a topic),
 * so the answer's unread count and the next request already show them; they are also told to the
 * {@link ReadLog} (for the receipts' "read in inbox").
 */
final class InboxApi implements Api {
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    /** Largest request body read, in bytes. */
    static final int MAX_BODY = 256 * 1024;

    private static final byte[] UID = ascii("{\"uid\":");
    private static final byte[] UNREAD = ascii(",\"unread\":");
    private static final byte[] MESSAGES = ascii(",\"messages\":[");
    private static final byte[] NEXT = ascii("],\"next\":");
    private static final byte[] NULL = ascii("null");
    private static final byte[] MSG_ID = ascii("{\"msgId\":");
    private static final byte[] TITLE = ascii(",\"title\":");
    private static final byte[] BODY = ascii(",\"body\":");
    private static final byte[] TS = ascii(",\"ts\":");
    private static final byte[] READ = ascii(",\"read\":");
    private static final byte[] TRUE_END = ascii("true}");
    private static final byte[] FALSE_END = ascii("false}");

    /** Messages whose JSON is kept; the store caches as many messages. */
    static final int MAX_ENCODED = 100_000;

    /** A message's JSON, with the message it was made from. */
    private record Encoded(Message message, byte[] json) {}

    private final Map<Integer, Encoded> encoded = new ConcurrentHashMap<>();
    private final InboxStore store;
    private final ReadLog readLog;
    private final LongSupplier clock;

    InboxApi(InboxStore store, ReadLog readLog, LongSupplier clock) {
        this.store = store;
        this.readLog = readLog;
        this.clock = clock;
    }

    @Override
    public void routes(RoutesConfig r) {
        r.get("/v1/inbox/{uid}", this::list);
        r.get("/v1/inbox/{uid}/messages/{msgId}", this::message);
        r.post("/v1/inbox/{uid}/read", this::read);
    }

    /** {@code GET /v1/inbox/{uid}?limit=L&before=C}. */
    void list(Context ctx) throws IOException {
        byte[] answer =
                page(ctx.pathParam("uid"), ctx.queryParam("limit"), ctx.queryParam("before"));
        ctx.status(200).contentType("application/json").result(answer);
    }

    /**
     * The answer to {@code GET /v1/inbox/{uid}}: a page of {@code uid}'s inbox as JSON.
     *
     * @param limit the query parameter as given; null: the default
     * @param before the cursor as given; null: the first page
     * @throws Server.BadRequest naming the parameter that is wrong
     */
    byte[] page(String uid, String limit, String before) throws IOException {
        PageRequest r = PageRequest.of(uid, limit, before);
        return render(uid, store.view(uid), r);
    }

    /**
     * As {@link #page}, from this process's memory only: null when the inbox is not all there (then
     * {@link #page} answers). Never blocks on I/O.
     */
    byte[] pageInMemory(String uid, String limit, String before) {
        PageRequest r = PageRequest.of(uid, limit, before);
        InboxView view = store.viewInMemory(uid);
        return view == null ? null : render(uid, view, r);
    }

    /** A page asked for, its parameters checked. */
    private record PageRequest(int limit, InboxCursor before) {
        static PageRequest of(String uid, String limit, String before) {
            Server.checkId("uid", uid);
            int size = InboxApi.limit(limit);
            InboxCursor cursor = null;
            if (before != null) {
                try {
                    cursor = InboxCursor.decode(before);
                } catch (IllegalArgumentException e) {
                    throw new Server.BadRequest("before: " + e.getMessage());
                }
            }
            return new PageRequest(size, cursor);
        }
    }

    private byte[] render(String uid, InboxView view, PageRequest r) {
        InboxView.Page page = view.page(r.limit(), r.before());
        // the most frequent answer of the server: messages' JSON is encoded once per message, and
        // the answer is assembled into an array of its exact size
        List<Message> messages = page.messages();
        byte[][] parts = new byte[messages.size()][];
        byte[] quotedUid = quoted(uid);
        byte[] unread = ascii(Long.toString(view.unread()));
        byte[] next = page.next() == null ? NULL : quoted(page.next().encode());
        int length =
                UID.length
                        + quotedUid.length
                        + UNREAD.length
                        + unread.length
                        + MESSAGES.length
                        + NEXT.length
                        + next.length
                        + 1;
        for (int i = 0; i < parts.length; i++) {
            parts[i] = encoded(messages.get(i));
            length += parts[i].length + (page.isRead(i) ? TRUE_END : FALSE_END).length + 1;
        }
        byte[] out = new byte[length - (parts.length == 0 ? 0 : 1)];
        int at = put(out, 0, UID);
        at = put(out, at, quotedUid);
        at = put(out, at, UNREAD);
        at = put(out, at, unread);
        at = put(out, at, MESSAGES);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out[at++] = ',';
            }
            at = put(out, at, parts[i]);
            at = put(out, at, page.isRead(i) ? TRUE_END : FALSE_END);
        }
        at = put(out, at, NEXT);
        at = put(out, at, next);
        out[at] = '}';
        return out;
    }

    private static int put(byte[] out, int at, byte[] part) {
        System.arraycopy(part, 0, out, at, part.length);
        return at + part.length;
    }

    /** {@code s} as a JSON string, quotes included. */
    private static byte[] quoted(String s) {
        byte[] inner = JsonStringEncoder.getInstance().quoteAsUTF8(s);
        byte[] out = new byte[inner.length + 2];
        out[0] = '"';
        System.arraycopy(inner, 0, out, 1, inner.length);
        out[out.length - 1] = '"';
        return out;
    }

    /**
     * A message's JSON up to its {@code read} value, made once per message: the store hands out one
     * instance per message until its entry changes (an earlier request of its msgId replaced it).
     */
    private byte[] encoded(Message m) {
        Encoded e = encoded.get(m.id());
        if (e != null && e.message() == m) {
            return e.json();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.writeBytes(MSG_ID);
        writeString(out, m.msgId());
        out.writeBytes(TITLE);
        writeString(out, m.title());
        out.writeBytes(BODY);
        writeString(out, m.body());
        out.writeBytes(TS);
        writeAscii(out, Long.toString(m.ts()));
        out.writeBytes(READ);
        byte[] json = out.toByteArray();
        if (encoded.size() >= MAX_ENCODED) {
            encoded.clear(); // a rare refill beats an eviction policy here
        }
        encoded.put(m.id(), new Encoded(m, json));
        return json;
    }

    private static void writeString(ByteArrayOutputStream out, String s) {
        if (s == null) {
            out.writeBytes(NULL);
            return;
        }
        out.write('"');
        out.writeBytes(JsonStringEncoder.getInstance().quoteAsUTF8(s));
        out.write('"');
    }

    private static void writeAscii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code GET /v1/inbox/{uid}/messages/{msgId}}. */
    void message(Context ctx) throws IOException {
        String uid = Server.id(ctx, "uid");
        String msgId = Server.id(ctx, "msgId");
        InboxStore.Status s = store.status(uid, msgId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("msgId", msgId);
        body.put("readable", s.readable());
        body.put("read", s.read());
        Server.json(ctx, 200, body);
    }

    /** {@code POST /v1/inbox/{uid}/read} with {@code {"msgIds":[...]}} or {@code {"all":true}}. */
    void read(Context ctx) throws IOException {
        String uid = Server.id(ctx, "uid");
        JsonNode node = body(ctx);
        JsonNode all = node.get("all");
        JsonNode ids = node.get("msgIds");
        boolean hasAll = all != null && !all.isNull();
        boolean hasIds = ids != null && !ids.isNull();
        if (hasAll == hasIds) {
            throw new Server.BadRequest("body: exactly one of 'msgIds' and 'all' is needed");
        }
        InboxStore.ReadResult r;
        if (hasAll) {
            if (!all.isBoolean() || !all.booleanValue()) {
                throw new Server.BadRequest("all: must be true");
            }
            r = store.readAll(uid);
        } else {
            List<String> msgIds = InboxParser.msgIds(ids);
            if (msgIds == null) {
                throw new Server.BadRequest(
                        "msgIds: must be an array of at most "
                                + InboxParser.MAX_IDS
                                + " non-empty strings of at most "
                                + InboxParser.MAX_ID
                                + " characters");
            }
            r = store.read(uid, msgIds);
        }
        if (readLog != null && !r.marked().isEmpty()) {
            List<String> read = new ArrayList<>(r.marked().size());
            r.marked().forEach(m -> read.add(m.msgId()));
            readLog.read(uid, read, clock.getAsLong());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("unread", r.unread());
        body.put("ignored", r.ignored());
        Server.json(ctx, 200, body);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static int limit(String text) {
        if (text == null) {
            return DEFAULT_LIMIT;
        }
        int limit;
        try {
            limit = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new Server.BadRequest("limit: must be an integer from 1 to " + MAX_LIMIT);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new Server.BadRequest("limit: must be an integer from 1 to " + MAX_LIMIT);
        }
        return limit;
    }

    static JsonNode body(Context ctx) {
        byte[] bytes = ctx.bodyAsBytes();
        if (bytes.length == 0) {
            throw new Server.BadRequest("body: a JSON object is needed");
        }
        if (bytes.length > MAX_BODY) {
            throw new Server.BadRequest("body: larger than " + MAX_BODY + " bytes");
        }
        JsonNode node;
        try {
            node = Json.WIRE.readTree(bytes);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new Server.BadRequest("body: not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new Server.BadRequest("body: must be a JSON object");
        }
        return node;
    }
}
