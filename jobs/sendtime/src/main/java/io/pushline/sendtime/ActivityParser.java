package io.pushline.sendtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import io.pushline.schema.sendtime.ActivityEvent;
import java.time.DateTimeException;
import java.time.ZoneId;

/** Reads one line of activity (docs/send-time.md); a bad one is refused with the reason. */
public final class ActivityParser {
    private ActivityParser() {}

    /** A line that cannot be used; the message names the field. */
    public static final class BadLine extends IllegalArgumentException {
        BadLine(String message) {
            super(message);
        }
    }

    public static ActivityEvent parse(String line) {
        JsonNode node;
        try {
            node = Json.WIRE.readTree(line);
        } catch (JsonProcessingException e) {
            throw new BadLine("not valid JSON: " + Json.problem(e));
        }
        if (node == null || !node.isObject()) {
            throw new BadLine("not a JSON object");
        }
        JsonNode uid = node.get("uid");
        if (uid == null || !uid.isTextual() || uid.asText().isEmpty()) {
            throw new BadLine(
                    uid == null || uid.isNull()
                            ? "missing field 'uid'"
                            : "field 'uid' must be a non-empty string");
        }
        JsonNode ts = node.get("ts");
        if (ts == null || ts.isNull()) {
            throw new BadLine("missing field 'ts'");
        }
        if (!ts.canConvertToExactIntegral() || !ts.canConvertToLong()) {
            throw new BadLine("field 'ts' must be an integer (epoch milliseconds)");
        }
        String tz = null;
        JsonNode zone = node.get("tz");
        if (zone != null && !zone.isNull()) {
            if (!zone.isTextual()) {
                throw new BadLine("field 'tz' must be a string (an IANA zone)");
            }
            try {
                ZoneId.of(zone.asText());
            } catch (DateTimeException e) {
                throw new BadLine("field 'tz': unknown zone '" + zone.asText() + "'");
            }
            tz = zone.asText();
        }
        return ActivityEvent.of(uid.asText(), ts.asLong(), tz);
    }
}
