package io.pushline.schema.inbox;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A message read in an inbox, as the receipts job reads it on {@code push.receipts}: {@code
 * {"ts","type":"inbox_read","msgId","uid"}}. The dispatch job's inbox writer emits one per (uid,
 * message), the first time the uid reads it.
 */
@JsonPropertyOrder({"ts", "type", "msgId", "uid"})
public class InboxRead {
    public static final String TYPE = "inbox_read";

    public long ts;
    public String type = TYPE;
    public String msgId;
    public String uid;

    public InboxRead() {}

    public static InboxRead of(long ts, String msgId, String uid) {
        InboxRead r = new InboxRead();
        r.ts = ts;
        r.msgId = msgId;
        r.uid = uid;
        return r;
    }
}
