package io.pushline.format;

import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;

/**
 * A {@link SendRecord} as the JSON of the vendor topics, written field by field: the same bytes as
 * {@link Json#write} gives (its property order, nulls left out, a fallback's nulls kept), without
 * databind's reflection, on the path every send of the job takes to its topic ({@link JsonBytes}).
 */
public final class SendRecordJson {
    private SendRecordJson() {}

    public static byte[] bytes(SendRecord s) {
        JsonBytes w =
                JsonBytes.get()
                        .stringIfPresent("msgId", s.msgId)
                        .stringIfPresent("msgType", s.msgType)
                        .number("level", s.level)
                        .stringIfPresent("uid", s.uid)
                        .stringIfPresent("deviceId", s.deviceId)
                        .stringIfPresent("vendor", s.vendor)
                        .stringIfPresent("token", s.token)
                        .stringIfPresent("title", s.title)
                        .stringIfPresent("body", s.body)
                        .number("ts", s.ts);
        if (s.deadline != null) {
            w.number("deadline", s.deadline);
        }
        if (s.attempt != null) {
            w.number("attempt", s.attempt);
        }
        if (s.fallback != null) {
            // a fallback's nulls are kept, as databind writes them
            w.startObject("fallback")
                    .string("vendor", s.fallback.vendor)
                    .string("token", s.fallback.token)
                    .endObject();
        }
        return w.end();
    }
}
