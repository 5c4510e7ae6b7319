package io.pushline.format;

import io.pushline.schema.Decision;
import io.pushline.schema.Json;

/**
 * A {@link Decision} as the JSON of {@code push.decisions}, written field by field: the same bytes
 * as {@link Json#write} gives (its property order, every field, nulls as {@code null}), without
 * databind's reflection: every (push, device) of the dispatch job is one ({@link JsonBytes}).
 */
public final class DecisionJson {
    private DecisionJson() {}

    public static byte[] bytes(Decision d) {
        return JsonBytes.get()
                .string("msgId", d.msgId)
                .string("uid", d.uid)
                .string("deviceId", d.deviceId)
                .string("vendor", d.vendor)
                .string("decision", d.decision)
                .string("reason", d.reason)
                .number("code", d.code)
                .string("msgType", d.msgType)
                .number("ts", d.ts)
                .end();
    }
}
