package io.pushline.schema.segments;

import io.pushline.schema.DeadLetter;

/**
 * One input row of the segment build: a member line of a user-package file (the segment's full
 * membership) or a membership change from {@code segment.changes}; or, when it could not be read, a
 * dead letter saying why.
 */
public class MemberRow {
    public static final byte FILE = 0;
    public static final byte ADD = 1;
    public static final byte REMOVE = 2;

    public String segment;
    public String uid;

    /** The uid's dense id, once the dictionary assigned it; -1 before. */
    public int id = -1;

    public byte op;

    /** Event time of a change (its {@code ts}); changes apply in (ts, order) order. */
    public long ts;

    /** Tie-breaker: the change's partition and offset. */
    public long order;

    public DeadLetter dead;

    public MemberRow() {}

    public static MemberRow of(String segment, String uid, byte op, long ts, long order) {
        MemberRow r = new MemberRow();
        r.segment = segment;
        r.uid = uid;
        r.op = op;
        r.ts = ts;
        r.order = order;
        return r;
    }

    public static MemberRow rejected(DeadLetter dead) {
        MemberRow r = new MemberRow();
        r.dead = dead;
        return r;
    }
}
