package io.pushline.schema.inbox;

import io.pushline.schema.Target;
import java.util.List;

/**
 * One change to inboxes, as the dispatch job hands it to the inbox writer: a message added to one
 * uid's inbox ({@link #ADD}), a message stored once for an audience ({@link #BROADCAST}), or a read
 * of some or all of a uid's messages ({@link #READ}, {@link #READ_ALL}). A POJO: it may sit in
 * network buffers and checkpoints and must evolve without Kryo.
 */
public class InboxOp {
    public static final String ADD = "add";
    public static final String BROADCAST = "broadcast";
    public static final String READ = "read";
    public static final String READ_ALL = "read_all";

    public String kind;

    /** The uid for add and reads; null for a broadcast. */
    public String uid;

    public String msgId;
    public String title;
    public String body;

    /** The message's time (the request's ts): what newest-first and retention go by. */
    public long msgTs;

    /** A broadcast's audience expression. */
    public String audience;

    /** Or the saved audience it went to (its current version is evaluated). */
    public String savedAudience;

    /** A read's msgIds. */
    public List<String> msgIds;

    /** Event time of the op (the request's or the read's). */
    public long ts;

    public InboxOp() {}

    public static InboxOp add(String uid, String msgId, String title, String body, long msgTs) {
        InboxOp o = message(ADD, msgId, title, body, msgTs);
        o.uid = uid;
        return o;
    }

    public static InboxOp broadcast(
            Target target, String msgId, String title, String body, long msgTs) {
        InboxOp o = message(BROADCAST, msgId, title, body, msgTs);
        o.audience = target.audience;
        o.savedAudience = target.savedAudience;
        return o;
    }

    public static InboxOp read(long ts, String uid, List<String> msgIds) {
        InboxOp o = new InboxOp();
        o.kind = READ;
        o.ts = ts;
        o.uid = uid;
        o.msgIds = msgIds;
        return o;
    }

    public static InboxOp readAll(long ts, String uid) {
        InboxOp o = new InboxOp();
        o.kind = READ_ALL;
        o.ts = ts;
        o.uid = uid;
        return o;
    }

    private static InboxOp message(
            String kind, String msgId, String title, String body, long msgTs) {
        InboxOp o = new InboxOp();
        o.kind = kind;
        o.msgId = msgId;
        o.title = title;
        o.body = body;
        o.msgTs = msgTs;
        o.ts = msgTs;
        return o;
    }

    /** What the writer is keyed by: the uid, or the msgId of a broadcast. */
    public String key() {
        return uid != null ? uid : "broadcast:" + msgId;
    }

    @Override
    public String toString() {
        return "InboxOp{"
                + kind
                + " "
                + (uid != null ? uid : audience != null ? audience : savedAudience)
                + " "
                + msgId
                + "}";
    }
}
