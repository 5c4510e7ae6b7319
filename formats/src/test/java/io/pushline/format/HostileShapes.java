package io.pushline.format;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Shapes of bad JSON lines that every reader of outside records must refuse with a reason (and
 * never throw on), made from one good line of that input: cut short, nested 100,000 deep, a key
 * given twice, a raw NUL, {@code ts} out of range or of the wrong type, not an object, not text.
 * The hostile-input tests of each input run them; {@code io.pushline.bench.hostile} plays the
 * dispatch job's through Kafka.
 */
public final class HostileShapes {
    private HostileShapes() {}

    /** A bad variant of a good line. */
    public record Shape(String name, String text) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Variants of {@code good} (a JSON object with at least one field) that must be refused. */
    public static List<Shape> of(String good) {
        JsonNode node = Json.read(good, JsonNode.class);
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        Map.Entry<String, JsonNode> first = fields.next();
        String body = good.substring(good.indexOf('{') + 1);
        List<Shape> out = new ArrayList<>();
        out.add(new Shape("cut short", good.substring(0, good.length() / 2)));
        out.add(
                new Shape(
                        "nested 100,000 deep",
                        "{\"deep\":" + "[".repeat(100_000) + "]".repeat(100_000) + "," + body));
        out.add(
                new Shape(
                        "a key given twice",
                        "{" + Json.write(first.getKey()) + ":" + first.getValue() + "," + body));
        out.add(new Shape("a raw NUL in a string", "{\"nul\":\"a\u0000b\"," + body));
        if (node.has("ts")) {
            String ts = "\"ts\":" + node.get("ts");
            out.add(new Shape("ts 1e400", good.replace(ts, "\"ts\":1e400")));
            out.add(new Shape("ts of 70 bits", good.replace(ts, "\"ts\":1180591620717411303424")));
            out.add(new Shape("ts as a string", good.replace(ts, "\"ts\":\"now\"")));
        }
        out.add(new Shape("a JSON array", "[" + good + "]"));
        out.add(new Shape("a JSON string", "\"" + first.getKey() + "\""));
        out.add(new Shape("null", "null"));
        out.add(new Shape("broken UTF-16", "\uFFFF\uD800"));
        return out;
    }
}
