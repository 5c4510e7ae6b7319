package io.pushline.recall;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads recall's inputs, one JSON line each: profiles (users.jsonl), history (history.jsonl) and
 * materials (materials.jsonl). A line that cannot be used throws with the reason.
 */
public final class RecallLines {
    private RecallLines() {}

    public static RecallInput profile(String line) {
        JsonNode n = Json.read(line, JsonNode.class);
        RecallInput r = new RecallInput();
        r.uid = text(n, "uid");
        r.kind = RecallInput.PROFILE;
        JsonNode tz = n.get("tz");
        if (tz != null && !tz.isNull()) {
            if (!tz.isTextual()) {
                throw new IllegalArgumentException("field 'tz' must be a zone name");
            }
            try {
                r.tz = java.time.ZoneId.of(tz.asText()).getId();
            } catch (java.time.DateTimeException e) {
                throw new IllegalArgumentException(
                        "field 'tz': unknown zone '" + tz.asText() + "'");
            }
        }
        JsonNode interests = n.get("interests");
        if (interests == null || !interests.isObject()) {
            throw new IllegalArgumentException("field 'interests' must be an object of weights");
        }
        r.tags = new String[interests.size()];
        r.weights = new double[interests.size()];
        int i = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = interests.fields(); it.hasNext(); i++) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNumber()) {
                throw new IllegalArgumentException("interest '" + e.getKey() + "' is not a number");
            }
            r.tags[i] = e.getKey();
            r.weights[i] = e.getValue().asDouble();
        }
        return r;
    }

    public static RecallInput history(String line) {
        JsonNode n = Json.read(line, JsonNode.class);
        RecallInput r = new RecallInput();
        r.uid = text(n, "uid");
        r.itemId = text(n, "itemId");
        r.kind = text(n, "kind");
        if (!r.kind.equals(RecallInput.CONSUMED) && !r.kind.equals(RecallInput.PUSHED)) {
            throw new IllegalArgumentException("field 'kind' must be consumed or pushed");
        }
        if (n.get("ts") == null || !n.get("ts").canConvertToLong()) {
            throw new IllegalArgumentException("field 'ts' must be an integer (epoch ms)");
        }
        r.ts = n.get("ts").asLong();
        return r;
    }

    public static Material material(String line) {
        Material m = Json.read(line, Material.class);
        if (m.itemId == null || m.tags == null || m.category == null) {
            throw new IllegalArgumentException("a material needs itemId, tags and category");
        }
        return m;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return v.asText();
    }
}
