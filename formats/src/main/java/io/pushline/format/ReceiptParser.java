package io.pushline.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.ReceiptEvent;

/**
 * Reads records of {@code push.receipts} (see jobs/receipts/README.md for the schema) and {@code
 * push.decisions}. Never throws: a bad record comes back as a dead letter whose reason names the
 * field.
 */
public final class ReceiptParser {
    private ReceiptParser() {}

    public static ReceiptEvent parse(String topic, String text, String position) {
        try {
            Object parsed = Topics.DECISIONS.equals(topic) ? decision(text) : receipt(text);
            if (parsed instanceof ReceiptEvent) {
                return (ReceiptEvent) parsed;
            }
            return ReceiptEvent.of(DeadLetter.of(topic, position, (String) parsed, text));
        } catch (Throwable t) {
            return ReceiptEvent.of(
                    RecordFailure.deadLetter(
                            "receipts-parser", topic + " " + position, () -> text, t, 1));
        }
    }

    /** A receipt, or the reason it is bad. */
    static Object receipt(String text) {
        Object node = object(text);
        if (node instanceof String) {
            return node;
        }
        JsonNode n = (JsonNode) node;
        ReceiptEvent e = new ReceiptEvent();
        String type = text(n, "type");
        if (type == null) {
            return missingOrWrong(n, "type", "a string");
        }
        switch (type) {
            case "sent":
                e.kind = ReceiptEvent.SENT;
                break;
            case "delivered":
                e.kind = ReceiptEvent.DELIVERED;
                break;
            case "clicked":
                e.kind = ReceiptEvent.CLICKED;
                break;
            case "failed":
                e.kind = ReceiptEvent.FAILED;
                break;
            case "token_invalid":
                e.kind = ReceiptEvent.TOKEN_INVALID;
                break;
            case "inbox_read":
                return inboxRead(n, e);
            case "longconn_acked":
                return longconn(n, e, ReceiptEvent.LC_ACKED);
            case "longconn_retry":
                return longconn(n, e, ReceiptEvent.LC_RETRY);
            case "longconn_fallback":
                return longconn(n, e, ReceiptEvent.LC_FALLBACK);
            case "longconn_give_up":
                return longconn(n, e, ReceiptEvent.LC_GIVE_UP);
            default:
                return "unknown type '"
                        + JsonFields.clip(type)
                        + "' (one of sent, delivered, clicked, failed, token_invalid,"
                        + " inbox_read, longconn_acked, longconn_retry, longconn_fallback,"
                        + " longconn_give_up)";
        }
        Object common = common(n, e);
        if (common != null) {
            return common;
        }
        if (e.deviceId == null) {
            return missingOrWrong(n, "deviceId", "a non-empty string");
        }
        if (e.vendor == null) {
            return missingOrWrong(n, "vendor", "a non-empty string");
        }
        if (e.kind == ReceiptEvent.TOKEN_INVALID) {
            e.token = text(n, "token");
            if (e.token == null || e.token.isEmpty()) {
                return missingOrWrong(n, "token", "the refused token, a non-empty string")
                        + " (the registry unbinds the device only if it is bound with this token)";
            }
        }
        if (e.kind == ReceiptEvent.FAILED) {
            JsonNode code = n.get("code");
            if (code == null || code.isNull()) {
                return "missing field 'code' (the vendor's error code of a failed receipt)";
            }
            if (!code.isTextual() && !code.isIntegralNumber()) {
                return "field 'code' must be a string or an integer";
            }
            e.reason = code.asText();
            if (e.reason.isEmpty()) {
                return "field 'code' must not be empty";
            }
        }
        return e;
    }

    /** A read in the inbox (written by the dispatch job): per uid, not per device. */
    private static Object inboxRead(JsonNode n, ReceiptEvent e) {
        e.kind = ReceiptEvent.INBOX_READ;
        Object common = common(n, e);
        if (common != null) {
            return common;
        }
        if (e.uid == null) {
            return missingOrWrong(n, "uid", "a non-empty string");
        }
        e.deviceId = "uid:" + e.uid;
        e.vendor = INBOX;
        return e;
    }

    /** A report of the long-connection job (see jobs/longconn/README.md). */
    private static Object longconn(JsonNode n, ReceiptEvent e, byte kind) {
        e.kind = kind;
        Object common = common(n, e);
        if (common != null) {
            return common;
        }
        if (e.deviceId == null) {
            return missingOrWrong(n, "deviceId", "a non-empty string");
        }
        if (e.vendor == null) {
            e.vendor = LONGCONN;
        }
        JsonNode attempt = n.get("attempt");
        if (attempt == null || attempt.isNull()) {
            return "missing field 'attempt'";
        }
        if (!attempt.canConvertToInt() || !attempt.isIntegralNumber() || attempt.asInt() < 0) {
            return "field 'attempt' must be an integer >= 0";
        }
        e.attempt = attempt.asInt();
        JsonNode delay = n.get("delayMs");
        if (delay == null || delay.isNull()) {
            return "missing field 'delayMs'";
        }
        if (!delay.isIntegralNumber() || !delay.canConvertToLong()) {
            return "field 'delayMs' must be an integer";
        }
        e.delayMs = delay.asLong();
        e.fallbackVendor = nonEmpty(n, "fallbackVendor");
        return e;
    }

    /** The vendor of long-connection reports that name none. */
    public static final String LONGCONN = "longconn";

    /** The vendor of inbox reads in the metrics: the inbox is a channel of its own. */
    public static final String INBOX = "inbox";

    /** A decision, or the reason it is bad. */
    static Object decision(String text) {
        Object node = object(text);
        if (node instanceof String) {
            return node;
        }
        JsonNode n = (JsonNode) node;
        ReceiptEvent e = new ReceiptEvent();
        e.kind = ReceiptEvent.DECISION;
        Object common = common(n, e);
        if (common != null) {
            return common;
        }
        e.decision = text(n, "decision");
        if (!Decision.PASS.equals(e.decision) && !Decision.DROP.equals(e.decision)) {
            return "field 'decision' must be PASS or DROP";
        }
        e.msgType = text(n, "msgType");
        if (e.msgType == null || e.msgType.isEmpty()) {
            return missingOrWrong(n, "msgType", "a non-empty string");
        }
        e.reason = text(n, "reason");
        if (Decision.DROP.equals(e.decision) && e.reason == null) {
            return "a DROP needs field 'reason'";
        }
        JsonNode code = n.get("code");
        if (code != null && code.canConvertToInt()) {
            e.code = code.asInt();
        }
        if (e.deviceId == null) {
            if (e.uid == null) {
                return "a decision needs 'deviceId' or 'uid'";
            }
            e.deviceId = "uid:" + e.uid;
        }
        if (Decision.PASS.equals(e.decision) && e.vendor == null) {
            return "a PASS needs field 'vendor'";
        }
        return e;
    }

    /** Fills msgId, deviceId, uid, vendor, ts; returns the reason when one is bad. */
    private static String common(JsonNode n, ReceiptEvent e) {
        e.msgId = text(n, "msgId");
        if (e.msgId == null || e.msgId.isEmpty()) {
            return missingOrWrong(n, "msgId", "a non-empty string");
        }
        if (e.msgId.indexOf('\0') >= 0) {
            return "field 'msgId' must not contain NUL";
        }
        e.deviceId = nonEmpty(n, "deviceId");
        e.uid = nonEmpty(n, "uid");
        e.vendor = nonEmpty(n, "vendor");
        JsonNode ts = n.get("ts");
        if (ts == null || ts.isNull()) {
            return "missing field 'ts'";
        }
        if (!ts.canConvertToExactIntegral() || !ts.canConvertToLong()) {
            return "field 'ts' must be an integer (epoch milliseconds)";
        }
        e.ts = ts.asLong();
        return null;
    }

    private static Object object(String text) {
        if (text == null || text.isBlank()) {
            return "empty record";
        }
        JsonNode node;
        try {
            node = Json.WIRE.readTree(text);
        } catch (JsonProcessingException ex) {
            return "not valid JSON: " + Json.problem(ex);
        }
        if (node == null || !node.isObject()) {
            return "not a JSON object";
        }
        return node;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    private static String nonEmpty(JsonNode node, String field) {
        String v = text(node, field);
        return v == null || v.isEmpty() ? null : v;
    }

    private static String missingOrWrong(JsonNode node, String field, String what) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull()
                ? "field '" + field + "' must be " + what
                : "missing field '" + field + "'";
    }
}
