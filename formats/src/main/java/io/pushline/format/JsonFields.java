package io.pushline.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;

/** Checks of one field of a JSON record, each giving the reason that names the field. */
public final class JsonFields {
    private JsonFields() {}

    /** A record read as a JSON object, or why it is not one. */
    public record Read(JsonNode node, String reason) {}

    /**
     * {@code text} as a JSON object of at most {@code maxChars} characters, or the reason it is not
     * one (empty, too long, not JSON, not an object).
     */
    public static Read object(String text, int maxChars) {
        if (text == null || text.isBlank()) {
            return new Read(null, "empty record");
        }
        if (text.length() > maxChars) {
            return new Read(
                    null, "record of " + text.length() + " characters, more than " + maxChars);
        }
        JsonNode node;
        try {
            node = Json.WIRE.readTree(text);
        } catch (JsonProcessingException e) {
            return new Read(null, "not valid JSON: " + Json.problem(e));
        }
        if (node == null || !node.isObject()) {
            return new Read(null, "not a JSON object");
        }
        return new Read(node, null);
    }

    /** Why {@code field} is not a JSON integer that fits a long, or null when it is. */
    public static String integer(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return "missing field '" + field + "'";
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            return "field '" + field + "' must be an integer (epoch milliseconds)";
        }
        return null;
    }

    /** Why {@code field} is not a string of at most {@code max} characters, or null. */
    public static String string(JsonNode node, String field, int max) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return "missing field '" + field + "'";
        }
        if (!v.isTextual()) {
            return "field '" + field + "' must be a string";
        }
        if (v.textValue().length() > max) {
            return "field '" + field + "' is longer than " + max + " characters";
        }
        return null;
    }

    /** A value quoted in a reason, cut short: reasons are bounded. */
    public static String clip(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }
}
