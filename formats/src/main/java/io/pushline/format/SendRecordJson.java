package io.pushline.format;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A {@link SendRecord} as the JSON of the vendor topics, written field by field: the same bytes as
 * {@link Json#write} gives (its property order, nulls left out, a fallback's nulls kept), without
 * databind's reflection, on the path every send of the job takes to its topic.
 */
public final class SendRecordJson {
    private SendRecordJson() {}

    public static byte[] bytes(SendRecord s) {
        // through characters, as databind's writeValueAsString: Jackson's byte writer escapes
        // characters outside the BMP where its character writer keeps them
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            string(g, "msgId", s.msgId);
            string(g, "msgType", s.msgType);
            g.writeNumberField("level", s.level);
            string(g, "uid", s.uid);
            string(g, "deviceId", s.deviceId);
            string(g, "vendor", s.vendor);
            string(g, "token", s.token);
            string(g, "title", s.title);
            string(g, "body", s.body);
            g.writeNumberField("ts", s.ts);
            if (s.deadline != null) {
                g.writeNumberField("deadline", s.deadline);
            }
            if (s.attempt != null) {
                g.writeNumberField("attempt", s.attempt);
            }
            if (s.fallback != null) {
                g.writeObjectFieldStart("fallback");
                g.writeStringField("vendor", s.fallback.vendor);
                g.writeStringField("token", s.fallback.token);
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void string(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }
}
