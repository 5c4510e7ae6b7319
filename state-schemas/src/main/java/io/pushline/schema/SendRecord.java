package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;

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
    "deadline",
    "attempt",
    "fallback"
})
@TypeInfo(SendRecordSerializer.Factory.class)
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

    /**
     * On {@code push.vendor.longconn}: the retry's number (1, 2, ...) when the ack tracker resends
     * the message; null for the first send. On a fallback vendor's topic: the retry that fell back.
     */
    public Integer attempt;

    /**
     * On {@code push.vendor.longconn}: the device's vendor channel, from its bind, for the ack
     * tracker's fallback; null when the device has none. Not sent on other vendors' topics.
     */
    public Fallback fallback;

    public SendRecord() {}

    /** A copy; {@code fallback} is shared (it is never changed in place). */
    public SendRecord copy() {
        SendRecord c = new SendRecord();
        c.msgId = msgId;
        c.msgType = msgType;
        c.level = level;
        c.uid = uid;
        c.deviceId = deviceId;
        c.vendor = vendor;
        c.token = token;
        c.title = title;
        c.body = body;
        c.ts = ts;
        c.deadline = deadline;
        c.attempt = attempt;
        c.fallback = fallback;
        return c;
    }

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
                && Objects.equals(deadline, s.deadline)
                && Objects.equals(attempt, s.attempt)
                && Objects.equals(fallback, s.fallback);
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
