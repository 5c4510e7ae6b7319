package io.pushline.schema.segments;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.RecordFailure;

/**
 * A membership change on {@code segment.changes}: {@code {"segment":"fans:host42","uid":"u1",
 * "op":"add"|"remove","ts":1767225600000}}. Producers key records by segment, so one segment's
 * changes stay in order in one partition.
 */
public class SegmentChange {
    public String segment;
    public String uid;
    public String op;
    public Long ts;

    public SegmentChange() {}

    /** Parses and checks one record; a bad one comes back as a dead letter with the reason. */
    public static MemberRow parse(String text, String source, int partition, long offset) {
        String position = partition + "@" + offset;
        SegmentChange c;
        try {
            c = Json.WIRE.forType(SegmentChange.class).readValue(text);
        } catch (JsonProcessingException e) {
            return bad(source, position, "not a segment change: " + Json.problem(e), text);
        } catch (Throwable t) {
            return bad(source, position, RecordFailure.lineReason("segment.changes", t), text);
        }
        if (c == null) {
            return bad(source, position, "not a segment change: empty", text);
        }
        if (c.segment == null || c.segment.isBlank()) {
            return bad(source, position, "missing field 'segment'", text);
        }
        if (!MemberRows.isSegmentName(c.segment)) {
            return bad(
                    source,
                    position,
                    "field 'segment': " + MemberRows.badSegmentName(c.segment),
                    text);
        }
        if (!MemberRows.isUid(c.uid)) {
            return bad(source, position, "missing or malformed field 'uid'", text);
        }
        byte op;
        if ("add".equals(c.op)) {
            op = MemberRow.ADD;
        } else if ("remove".equals(c.op)) {
            op = MemberRow.REMOVE;
        } else {
            return bad(source, position, "field 'op' must be add or remove", text);
        }
        if (c.ts == null) {
            return bad(source, position, "missing field 'ts'", text);
        }
        return MemberRow.of(c.segment, c.uid, op, c.ts, ((long) partition << 48) | offset);
    }

    private static MemberRow bad(String source, String position, String reason, String raw) {
        return MemberRow.rejected(DeadLetter.of(source, position, reason, raw));
    }
}
