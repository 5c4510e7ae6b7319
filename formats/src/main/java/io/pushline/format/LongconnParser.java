package io.pushline.format;

import static io.pushline.format.JsonFields.clip;
import static io.pushline.format.JsonFields.integer;
import static io.pushline.format.JsonFields.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.longconn.AppVersion;
import io.pushline.schema.longconn.LongconnEvent;

/**
 * Reads one long-connection event: a line of a {@code pushline longconn replay} trace ({@code
 * presence}, {@code sent} or {@code ack}), a record of {@code longconn.acks} (whose {@code type}
 * may be left out) or of {@code longconn.presence}. Never throws: a bad event comes back with the
 * reason, which names the field.
 */
public final class LongconnParser {
    /** Longest record read, in characters. */
    public static final int MAX_RECORD = 64 * 1024;

    /** Longest msgId or deviceId. */
    public static final int MAX_ID = 256;

    private LongconnParser() {}

    /** An event, or why the text is not one. */
    public record Result(LongconnEvent event, String reason) {
        static Result bad(String reason) {
            return new Result(null, reason);
        }
    }

    /** A trace line: {@code type} is required. */
    public static Result parse(String text, long seq) {
        return parse(text, seq, null);
    }

    /**
     * @param defaultType the type of a record that has none (an ack topic's records), or null when
     *     {@code type} is required
     */
    public static Result parse(String text, long seq, String defaultType) {
        try {
            return read(text, seq, defaultType);
        } catch (RuntimeException | StackOverflowError e) {
            return Result.bad("unreadable record: " + e.getClass().getSimpleName());
        }
    }

    private static Result read(String text, long seq, String defaultType) {
        JsonFields.Read read = JsonFields.object(text, MAX_RECORD);
        if (read.node() == null) {
            return Result.bad(read.reason());
        }
        JsonNode node = read.node();
        String bad;
        if ((bad = integer(node, "ts")) != null) {
            return Result.bad(bad);
        }
        String type;
        JsonNode t = node.get("type");
        if ((t == null || t.isNull()) && defaultType != null) {
            type = defaultType;
        } else if ((bad = string(node, "type", MAX_ID)) != null) {
            return Result.bad(bad);
        } else {
            type = t.textValue();
        }
        LongconnEvent e = new LongconnEvent();
        e.ts = node.get("ts").longValue();
        e.seq = seq;
        switch (type) {
            case LongconnEvent.PRESENCE:
                if ((bad = string(node, "deviceId", MAX_ID)) != null) {
                    return Result.bad(bad);
                }
                JsonNode online = node.get("online");
                if (online == null || online.isNull()) {
                    return Result.bad("missing field 'online'");
                }
                if (!online.isBoolean()) {
                    return Result.bad("field 'online' must be true or false");
                }
                JsonNode version = node.get("appVersion");
                if (version != null && !version.isNull()) {
                    if (!version.isTextual()) {
                        return Result.bad("field 'appVersion' must be a string");
                    }
                    if (!AppVersion.valid(version.textValue())) {
                        return Result.bad(
                                "field 'appVersion': malformed version '"
                                        + clip(version.textValue())
                                        + "' (one to four dot-separated numbers)");
                    }
                    e.appVersion = version.textValue();
                }
                e.type = LongconnEvent.PRESENCE;
                e.deviceId = node.get("deviceId").textValue();
                e.online = online.booleanValue();
                return new Result(e, null);
            case LongconnEvent.SENT:
            case LongconnEvent.ACK:
                if ((bad = string(node, "msgId", MAX_ID)) != null
                        || (bad = string(node, "deviceId", MAX_ID)) != null) {
                    return Result.bad(bad);
                }
                e.type = type;
                e.msgId = node.get("msgId").textValue();
                e.deviceId = node.get("deviceId").textValue();
                return new Result(e, null);
            default:
                return Result.bad("unknown type '" + clip(type) + "'");
        }
    }
}
