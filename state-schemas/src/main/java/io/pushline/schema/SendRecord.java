package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A record of {@code push.vendor.<vendor>}: one message to one device, everything a vendor gateway
 * needs to call the vendor. Keyed by deviceId on the topic. {@code ts} is the request's event time.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "msgId",
    "msgType",
    "level",
    "uid",
    "deviceId",
    "vendor",
    "token",
    "title",
    "body",
    "ts",
    "deadline"
})
public class SendRecord {
    public String msgId;
    public String msgType;
    public int level;
    public String uid;
    public String deviceId;
    public String vendor;
    public String token;
    public String title;
    public String body;
    public long ts;

    /** Epoch ms after which the send is worthless (a campaign's deadline), or null. */
    public Long deadline;

    public SendRecord() {}

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SendRecord)) {
            return false;
        }
        SendRecord s = (SendRecord) o;
        return level == s.level
                && ts == s.ts
                && Objects.equals(msgId, s.msgId)
                && Objects.equals(msgType, s.msgType)
                && Objects.equals(uid, s.uid)
                && Objects.equals(deviceId, s.deviceId)
                && Objects.equals(vendor, s.vendor)
                && Objects.equals(token, s.token)
                && Objects.equals(title, s.title)
                && Objects.equals(body, s.body)
                && Objects.equals(deadline, s.deadline);
    }

    @Override
    public int hashCode() {
        return Objects.hash(msgId, deviceId);
    }

    @Override
    public String toString() {
        return Json.write(this);
    }
}
