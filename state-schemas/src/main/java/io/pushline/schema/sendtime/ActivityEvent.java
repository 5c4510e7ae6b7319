package io.pushline.schema.sendtime;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One activity event of a user (docs/send-time.md): {@code
 * {"uid":"u1","ts":...,"tz":"Asia/Shanghai"}}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"uid", "ts", "tz"})
public class ActivityEvent {
    public String uid;
    public long ts;

    /** IANA zone, or null for the rules' timezone. */
    public String tz;

    public ActivityEvent() {}

    public static ActivityEvent of(String uid, long ts, String tz) {
        ActivityEvent e = new ActivityEvent();
        e.uid = uid;
        e.ts = ts;
        e.tz = tz;
        return e;
    }
}
