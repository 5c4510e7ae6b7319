package io.pushline.schema.inbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A notice that a uid's inbox row was written, on {@code inbox.changes}: {@code {"ts","uid"}},
 * keyed by uid. The dispatch job's inbox writer emits one after each change it applies (also when
 * the change was already there, as after a restore), so servers that cache inbox rows read the row
 * again. {@code ts} is when the writer applied it: servers measure how far behind they are.
 *
 * <p>The other notice, {@code {"ts","msg"}} with an empty key: the stored entry of message id
 * {@code msg} changed (an earlier request of its msgId came after a later one), so servers drop the
 * copy they cache.
 */
@JsonPropertyOrder({"ts", "uid", "msg"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InboxChange {
    public long ts;
    public String uid;

    /** The message id whose entry changed; null on a row's notice. */
    public Integer msg;

    public InboxChange() {}

    public static InboxChange of(long ts, String uid) {
        InboxChange c = new InboxChange();
        c.ts = ts;
        c.uid = uid;
        return c;
    }

    public static InboxChange message(long ts, int msg) {
        InboxChange c = new InboxChange();
        c.ts = ts;
        c.msg = msg;
        return c;
    }

    /** The record key on {@code inbox.changes}: the uid, empty for a message's notice. */
    public String key() {
        return uid == null ? "" : uid;
    }
}
