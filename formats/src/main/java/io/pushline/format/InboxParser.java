package io.pushline.format;

import static io.pushline.format.JsonFields.clip;
import static io.pushline.format.JsonFields.integer;
import static io.pushline.format.JsonFields.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.inbox.InboxOp;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Reads one record of {@code inbox.events}: {@code {"ts","type":"read","uid","msgIds":[...]}} or
 * {@code {"ts","type":"read","uid","all":true}}. Never throws: a bad record comes back with the
 * reason, which names the field.
 */
public final class InboxParser {
    /** Longest record read, in characters. */
    public static final int MAX_RECORD = 1 << 20;

    /** Longest uid or msgId. */
    public static final int MAX_ID = 256;

    /** Most msgIds one read may name. */
    public static final int MAX_IDS = 1_000;

    private InboxParser() {}

    /** A read, or why the text is not one. */
    public record Result(InboxOp op, String reason) {
        static Result bad(String reason) {
            return new Result(null, reason);
        }
    }

    public static Result parse(String text) {
        try {
            return read(text);
        } catch (RuntimeException | StackOverflowError e) {
            return Result.bad("unreadable record: " + e.getClass().getSimpleName());
        }
    }

    private static Result read(String text) {
        JsonFields.Read read = JsonFields.object(text, MAX_RECORD);
        if (read.node() == null) {
            return Result.bad(read.reason());
        }
        JsonNode node = read.node();
        String bad;
        if ((bad = integer(node, "ts")) != null || (bad = string(node, "type", MAX_ID)) != null) {
            return Result.bad(bad);
        }
        String type = node.get("type").textValue();
        if (!type.equals("read")) {
            return Result.bad("unknown type '" + clip(type) + "'");
        }
        if ((bad = string(node, "uid", MAX_ID)) != null) {
            return Result.bad(bad);
        }
        long ts = node.get("ts").longValue();
        String uid = node.get("uid").textValue();
        if (uid.isEmpty()) {
            return Result.bad("field 'uid' must not be empty");
        }
        JsonNode all = node.get("all");
        JsonNode ids = node.get("msgIds");
        boolean hasAll = all != null && !all.isNull();
        boolean hasIds = ids != null && !ids.isNull();
        if (hasAll == hasIds) {
            return Result.bad("exactly one of fields 'msgIds' and 'all' is needed");
        }
        if (hasAll) {
            if (!all.isBoolean() || !all.booleanValue()) {
                return Result.bad("field 'all' must be true");
            }
            return new Result(InboxOp.readAll(ts, uid), null);
        }
        List<String> msgIds = msgIds(ids);
        if (msgIds == null) {
            return Result.bad(
                    "field 'msgIds' must be an array of at most "
                            + MAX_IDS
                            + " non-empty strings of at most "
                            + MAX_ID
                            + " characters");
        }
        return new Result(InboxOp.read(ts, uid, msgIds), null);
    }

    /** The distinct msgIds of a JSON array, in order, or null when it is not a valid list. */
    public static List<String> msgIds(JsonNode ids) {
        if (ids == null || !ids.isArray() || ids.size() > MAX_IDS) {
            return null;
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (JsonNode id : ids) {
            if (!id.isTextual() || id.textValue().isEmpty() || id.textValue().length() > MAX_ID) {
                return null;
            }
            out.add(id.textValue());
        }
        return new ArrayList<>(out);
    }
}
