package io.pushline.format;

import static io.pushline.format.JsonFields.clip;
import static io.pushline.format.JsonFields.integer;
import static io.pushline.format.JsonFields.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.reminders.ReminderEvent;
import java.time.ZoneId;
import java.util.Set;

/**
 * Reads one reminders event (a line of a trace, a record of {@code reminder.tasks} or {@code
 * reminder.subscriptions}) and checks it: valid JSON, a known {@code type} and {@code op}, every
 * field the type and op need, each of its JSON type, a known zone. Never throws: a bad event comes
 * back with the reason, which names the field.
 */
public final class ReminderParser {
    /** Longest record read, in characters. */
    public static final int MAX_RECORD = 1 << 20;

    /** Longest taskId or uid. */
    public static final int MAX_ID = 256;

    /** Longest title or body. */
    public static final int MAX_TEXT = 4_096;

    /**
     * Names Java lists among its zones that are files of a tz installation, not Zone or Link names
     * of the tz database.
     */
    private static final Set<String> NOT_ZONES = Set.of("localtime", "posixrules", "Factory");

    private static final Set<String> ZONES = ZoneId.getAvailableZoneIds();

    private ReminderParser() {}

    /** An event, or why the text is not one. */
    public record Result(ReminderEvent event, String reason) {
        static Result bad(String reason) {
            return new Result(null, reason);
        }
    }

    /**
     * @param seq order among events of equal {@code ts}
     */
    public static Result parse(String text, long seq) {
        try {
            return read(text, seq);
        } catch (RuntimeException | StackOverflowError e) {
            // a parser bug or a pathological input must not stop a job
            return Result.bad("unreadable record: " + e.getClass().getSimpleName());
        }
    }

    /** Whether {@code zone} is a Zone or Link name of the tz database. */
    public static boolean knownZone(String zone) {
        return zone != null && ZONES.contains(zone) && !NOT_ZONES.contains(zone);
    }

    private static Result read(String text, long seq) {
        JsonFields.Read read = JsonFields.object(text, MAX_RECORD);
        if (read.node() == null) {
            return Result.bad(read.reason());
        }
        JsonNode node = read.node();
        ReminderEvent e = new ReminderEvent();
        e.seq = seq;
        String bad;
        if ((bad = integer(node, "ts")) != null) {
            return Result.bad(bad);
        }
        e.ts = node.get("ts").longValue();
        if ((bad = string(node, "type", MAX_ID)) != null) {
            return Result.bad(bad);
        }
        e.type = node.get("type").textValue();
        switch (e.type) {
            case ReminderEvent.TASK:
                return task(node, e);
            case ReminderEvent.SUBSCRIBE:
            case ReminderEvent.UNSUBSCRIBE:
            case ReminderEvent.PULL:
                if ((bad = string(node, "taskId", MAX_ID)) != null
                        || (bad = string(node, "uid", MAX_ID)) != null) {
                    return Result.bad(bad);
                }
                e.taskId = node.get("taskId").textValue();
                e.uid = node.get("uid").textValue();
                return new Result(e, null);
            default:
                return Result.bad("unknown type '" + clip(e.type) + "'");
        }
    }

    private static Result task(JsonNode node, ReminderEvent e) {
        String bad;
        if ((bad = string(node, "op", MAX_ID)) != null) {
            return Result.bad(bad);
        }
        e.op = node.get("op").textValue();
        if (!e.op.equals(ReminderEvent.CREATE)
                && !e.op.equals(ReminderEvent.UPDATE)
                && !e.op.equals(ReminderEvent.CANCEL)) {
            return Result.bad("unknown op '" + clip(e.op) + "'");
        }
        if ((bad = string(node, "taskId", MAX_ID)) != null) {
            return Result.bad(bad);
        }
        e.taskId = node.get("taskId").textValue();
        if (e.op.equals(ReminderEvent.CANCEL)) {
            return new Result(e, null);
        }
        if ((bad = integer(node, "fireAt")) != null
                || (bad = string(node, "zone", MAX_ID)) != null
                || (bad = string(node, "title", MAX_TEXT)) != null
                || (bad = string(node, "body", MAX_TEXT)) != null) {
            return Result.bad(bad);
        }
        e.fireAt = node.get("fireAt").longValue();
        e.zone = node.get("zone").textValue();
        e.title = node.get("title").textValue();
        e.body = node.get("body").textValue();
        if (!knownZone(e.zone)) {
            return Result.bad("field 'zone': unknown zone '" + clip(e.zone) + "'");
        }
        return new Result(e, null);
    }
}
