package io.pushline.schema.inbox;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A notice that a uid's inbox row was written, on {@code inbox.changes}: {@code {"ts","uid"}},
 * keyed by uid. The dispatch job's inbox writer emits one after each change it applies (also when
 * the change was already there, as after a restore), so servers that cache inbox rows read the row
 * again. {@code ts} is when the writer applied it: servers measure how far behind they are.
 */
@JsonPropertyOrder({"ts", "uid"})
public class InboxChange {
    public long ts;
    public String uid;

    public InboxChange() {}

    public static InboxChange of(long ts, String uid) {
        InboxChange c = new InboxChange();
        c.ts = ts;
        c.uid = uid;
        return c;
    }
}
