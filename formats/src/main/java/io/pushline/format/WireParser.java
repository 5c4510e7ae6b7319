package io.pushline.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.Fallback;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.Target;
import io.pushline.schema.Vendor;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one record of {@code push.requests} or {@code device.events} (equally, one line of a
 * dispatch trace) and checks it against the contract in docs/dispatch-gate.md. Never throws: a bad
 * record comes back as a dead letter whose reason names the field.
 */
public final class WireParser {
    /** Longest record read, in characters; Kafka's default record limit is about as large. */
    public static final int MAX_RECORD = 1 << 20;

    /** Longest id (deviceId, uid, msgId, msgType, vendor, each listed target). */
    public static final int MAX_ID = 256;

    /** Longest device token (APNs tokens have 64 characters, FCM ones about 160). */
    public static final int MAX_TOKEN = 4_096;

    private final boolean knownVendorsOnly;

    /**
     * @param knownVendorsOnly reject binds whose vendor is not one of {@link Vendor}: the streaming
     *     job must, because it has no topic for them; a replay need not.
     */
    public WireParser(boolean knownVendorsOnly) {
        this.knownVendorsOnly = knownVendorsOnly;
    }

    /**
     * @param source topic name or {@code trace}
     * @param position where in the source, for the dead letter
     * @param seq order among records with equal {@code ts}
     */
    public ParsedRecord parse(String text, String source, String position, long seq) {
        return parseRecord(text, source, position, seq).from(source, position);
    }

    private ParsedRecord parseRecord(String text, String source, String position, long seq) {
        try {
            Parsed parsed = parse(text, seq);
            if (parsed instanceof Event e) {
                return ParsedRecord.of(e.event());
            }
            if (parsed instanceof Request r) {
                return ParsedRecord.of(r.request());
            }
            return ParsedRecord.of(DeadLetter.of(source, position, ((Bad) parsed).reason(), text));
        } catch (Throwable t) {
            // A parser bug must not stop the job either; the record is kept with the cause.
            return ParsedRecord.of(
                    RecordFailure.deadLetter("parser", source + " " + position, () -> text, t, 1));
        }
    }

    /**
     * Why the dispatch job would send {@code text} to its dead-letter output, or null when it takes
     * it: the HTTP API refuses such a body before writing it.
     */
    public String problem(String text) {
        try {
            Parsed p = parse(text, 0);
            return p instanceof Bad b ? b.reason() : null;
        } catch (RuntimeException | StackOverflowError e) {
            return "unreadable record: " + e.getClass().getSimpleName();
        }
    }

    /** What one line is: a device event, a push request, or bad, with the reason. */
    sealed interface Parsed permits Event, Request, Bad {}

    record Event(DeviceEvent event) implements Parsed {}

    record Request(PushRequest request) implements Parsed {}

    record Bad(String reason) implements Parsed {}

    private Parsed parse(String text, long seq) {
        if (text == null || text.isBlank()) {
            return new Bad("empty record");
        }
        if (text.length() > MAX_RECORD) {
            return new Bad("record of " + text.length() + " characters, more than " + MAX_RECORD);
        }
        JsonNode node;
        try {
            node = Json.WIRE.readTree(text);
        } catch (JsonProcessingException e) {
            return new Bad("not valid JSON: " + Json.problem(e));
        }
        if (node == null || !node.isObject()) {
            return new Bad("not a JSON object");
        }
        String type = textOf(node, "type");
        if (type == null) {
            return new Bad(missingOrWrong(node, "type", "a string"));
        }
        JsonNode ts = node.get("ts");
        if (ts == null || ts.isNull()) {
            return new Bad("missing field 'ts'");
        }
        if (!ts.canConvertToExactIntegral() || !ts.canConvertToLong()) {
            return new Bad("field 'ts' must be an integer (epoch milliseconds)");
        }
        switch (type) {
            case DeviceEvent.BIND:
            case DeviceEvent.UNBIND:
            case DeviceEvent.SWITCH:
                return deviceEvent(node, type, ts.asLong(), seq);
            case PushRequest.TYPE:
                return push(node, ts.asLong(), seq);
            default:
                return new Bad("unknown type '" + type + "'");
        }
    }

    /** The first field of {@code fields} (name, value pairs) longer than allowed, or null. */
    private static Bad tooLong(String... fields) {
        for (int i = 0; i < fields.length; i += 2) {
            String v = fields[i + 1];
            int max = fields[i].equals("token") ? MAX_TOKEN : MAX_ID;
            if (v != null && v.length() > max) {
                return new Bad("field '" + fields[i] + "' is longer than " + max + " characters");
            }
        }
        return null;
    }

    private Parsed deviceEvent(JsonNode node, String type, long ts, long seq) {
        DeviceEvent e = new DeviceEvent();
        e.ts = ts;
        e.type = type;
        e.seq = seq;
        e.deviceId = id(node, "deviceId");
        if (e.deviceId == null) {
            return new Bad(missingOrWrong(node, "deviceId", "a non-empty string"));
        }
        if (DeviceEvent.UNBIND.equals(type) && node.has("token")) {
            e.token = textOf(node, "token");
            if (e.token == null) {
                return new Bad("field 'token' of an unbind must be a string");
            }
        }
        if (DeviceEvent.BIND.equals(type)) {
            e.uid = id(node, "uid");
            if (e.uid == null) {
                return new Bad(missingOrWrong(node, "uid", "a non-empty string"));
            }
            e.vendor = id(node, "vendor");
            if (e.vendor == null) {
                return new Bad(missingOrWrong(node, "vendor", "a non-empty string"));
            }
            if (knownVendorsOnly && Vendor.fromWire(e.vendor) == null) {
                return new Bad("unknown vendor '" + e.vendor + "' (one of " + vendorNames() + ")");
            }
            e.token = textOf(node, "token");
            if (e.token == null) {
                return new Bad(missingOrWrong(node, "token", "a string"));
            }
            if (present(node, "tz")) {
                e.tz = textOf(node, "tz");
                if (e.tz == null) {
                    return new Bad("field 'tz' must be a string (an IANA zone)");
                }
                try {
                    ZoneId.of(e.tz);
                } catch (DateTimeException ex) {
                    return new Bad("field 'tz': unknown zone '" + e.tz + "'");
                }
            }
            if (present(node, "pushEnabled")) {
                if (!node.get("pushEnabled").isBoolean()) {
                    return new Bad("field 'pushEnabled' must be true or false");
                }
                e.pushEnabled = node.get("pushEnabled").booleanValue();
            }
            if (knownVendorsOnly && present(node, "fallback")) {
                Bad bad = fallback(node.get("fallback"), e);
                if (bad != null) {
                    return bad;
                }
            }
        } else if (DeviceEvent.SWITCH.equals(type)) {
            JsonNode enabled = node.get("enabled");
            if (enabled == null || enabled.isNull()) {
                return new Bad("missing field 'enabled'");
            }
            if (!enabled.isBoolean()) {
                return new Bad("field 'enabled' must be true or false");
            }
            e.enabled = enabled.booleanValue();
        }
        Bad longField =
                tooLong("deviceId", e.deviceId, "uid", e.uid, "vendor", e.vendor, "token", e.token);
        return longField != null ? longField : new Event(e);
    }

    /**
     * A bind's fallback channel, {@code {"vendor", "token"}}: a known vendor other than the long
     * connection itself, and a token.
     */
    private static Bad fallback(JsonNode f, DeviceEvent e) {
        if (!f.isObject()) {
            return new Bad("field 'fallback' must be an object with 'vendor' and 'token'");
        }
        String vendor = textOf(f, "vendor");
        if (vendor == null || vendor.isEmpty()) {
            return new Bad("field 'fallback.vendor' must be a non-empty string");
        }
        Vendor v = Vendor.fromWire(vendor);
        if (v == null || v == Vendor.LONGCONN) {
            return new Bad(
                    "field 'fallback.vendor': '"
                            + JsonFields.clip(vendor)
                            + "' is not a vendor channel (one of "
                            + vendorNames().replace(", longconn", "")
                            + ")");
        }
        String token = textOf(f, "token");
        if (token == null) {
            return new Bad("field 'fallback.token' must be a string");
        }
        if (token.length() > MAX_TOKEN) {
            return new Bad("field 'fallback.token' is longer than " + MAX_TOKEN + " characters");
        }
        e.fallback = Fallback.of(vendor, token);
        return null;
    }

    private Parsed push(JsonNode node, long ts, long seq) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.seq = seq;
        p.msgId = id(node, "msgId");
        if (p.msgId == null) {
            return new Bad(missingOrWrong(node, "msgId", "a non-empty string"));
        }
        p.msgType = id(node, "msgType");
        if (p.msgType == null) {
            return new Bad(missingOrWrong(node, "msgType", "a non-empty string"));
        }
        p.title = textOf(node, "title");
        if (p.title == null) {
            return new Bad(missingOrWrong(node, "title", "a string"));
        }
        p.body = textOf(node, "body");
        if (p.body == null) {
            return new Bad(missingOrWrong(node, "body", "a string"));
        }
        if (present(node, "level")) {
            JsonNode level = node.get("level");
            if (!level.canConvertToExactIntegral() || !level.canConvertToInt()) {
                return new Bad("field 'level' must be an integer");
            }
            p.level = level.asInt();
        }
        if (present(node, "deadline")) {
            JsonNode deadline = node.get("deadline");
            if (!deadline.canConvertToExactIntegral() || !deadline.canConvertToLong()) {
                return new Bad("field 'deadline' must be an integer (epoch milliseconds)");
            }
            p.deadline = deadline.asLong();
        }
        if (present(node, "at")) {
            JsonNode at = node.get("at");
            if (!at.canConvertToExactIntegral() || !at.canConvertToLong()) {
                return new Bad("field 'at' must be an integer (epoch milliseconds)");
            }
            p.at = at.asLong();
        }
        if (present(node, "inbox")) {
            JsonNode inbox = node.get("inbox");
            if (!inbox.isBoolean()) {
                return new Bad("field 'inbox' must be true or false");
            }
            p.inbox = inbox.booleanValue();
        }
        if (present(node, "maxRate")) {
            JsonNode rate = node.get("maxRate");
            if (!rate.canConvertToExactIntegral() || !rate.canConvertToInt() || rate.asInt() < 1) {
                return new Bad("field 'maxRate' must be a positive integer (sends per second)");
            }
            p.maxRate = rate.asInt();
        }
        JsonNode target = node.get("target");
        if (target == null || target.isNull()) {
            return new Bad("missing field 'target'");
        }
        if (!target.isObject()) {
            return new Bad("field 'target' must be an object with one of uids, devices, audience");
        }
        int kinds = 0;
        p.target = new Target();
        if (present(target, "uids")) {
            kinds++;
            p.target.uids = idList(target.get("uids"));
            if (p.target.uids == null) {
                return new Bad(
                        "field 'target.uids' must be an array of non-empty strings"
                                + " of at most "
                                + MAX_ID
                                + " characters");
            }
        }
        if (present(target, "devices")) {
            kinds++;
            p.target.devices = idList(target.get("devices"));
            if (p.target.devices == null) {
                return new Bad(
                        "field 'target.devices' must be an array of non-empty strings"
                                + " of at most "
                                + MAX_ID
                                + " characters");
            }
        }
        if (present(target, "audience")) {
            kinds++;
            p.target.audience = textOf(target, "audience");
            if (p.target.audience == null) {
                return new Bad("field 'target.audience' must be a string (an audience expression)");
            }
        }
        if (present(target, "savedAudience")) {
            kinds++;
            p.target.savedAudience = textOf(target, "savedAudience");
            if (p.target.savedAudience == null
                    || !Target.SAVED_NAME.matcher(p.target.savedAudience).matches()) {
                return new Bad(
                        "field 'target.savedAudience' must be a saved audience's name (1-64"
                                + " letters, digits, '_', '.', '-')");
            }
        }
        if (kinds != 1) {
            return new Bad(
                    "field 'target' must have exactly one of uids, devices, audience (has "
                            + kinds
                            + ")"
                            + (p.target.savedAudience == null
                                    ? ""
                                    : "; a savedAudience is an audience"));
        }
        Bad longField = tooLong("msgId", p.msgId, "msgType", p.msgType);
        return longField != null ? longField : new Request(p);
    }

    private static boolean present(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    private static String textOf(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    private static String id(JsonNode node, String field) {
        String v = textOf(node, field);
        return v == null || v.isEmpty() ? null : v;
    }

    private static String missingOrWrong(JsonNode node, String field, String what) {
        return present(node, field)
                ? "field '" + field + "' must be " + what
                : "missing field '" + field + "'";
    }

    private static List<String> idList(JsonNode array) {
        if (!array.isArray()) {
            return null;
        }
        List<String> out = new ArrayList<>(array.size());
        for (JsonNode item : array) {
            if (!item.isTextual()
                    || item.textValue().isEmpty()
                    || item.textValue().length() > MAX_ID) {
                return null;
            }
            out.add(item.textValue());
        }
        return out;
    }

    private static String vendorNames() {
        StringBuilder b = new StringBuilder();
        for (Vendor v : Vendor.values()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(v.wireName());
        }
        return b.toString();
    }
}
