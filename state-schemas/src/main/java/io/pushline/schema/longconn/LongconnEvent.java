package io.pushline.schema.longconn;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * One input of the long-connection ack tracker, keyed by deviceId: a line of a {@code pushline
 * longconn replay} trace, or in the streaming job a committed send of {@code push.vendor.longconn},
 * an ack of {@code longconn.acks} or a presence of {@code longconn.presence}. A POJO: it waits in
 * keyed state until the watermark passes its time.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"ts", "type", "msgId", "deviceId", "online", "appVersion"})
@TypeInfo(LongconnEventSerializer.Factory.class)
public class LongconnEvent {
    public static final String PRESENCE = "presence";
    public static final String SENT = "sent";
    public static final String ACK = "ack";

    public long ts;
    public String type;
    public String msgId;
    public String deviceId;
    public Boolean online;
    public String appVersion;

    /**
     * For {@link #SENT} in the streaming job: the send, with the device's fallback channel as the
     * registry knew it; resent on retries and fallbacks.
     */
    @JsonIgnore public SendBytes send;

    /** Order among events of equal {@code ts}: the line number in a trace. */
    @JsonIgnore public long seq;

    public LongconnEvent() {}

    public static LongconnEvent sent(long ts, String msgId, String deviceId) {
        LongconnEvent e = of(ts, SENT, deviceId);
        e.msgId = msgId;
        return e;
    }

    public static LongconnEvent ack(long ts, String msgId, String deviceId) {
        LongconnEvent e = of(ts, ACK, deviceId);
        e.msgId = msgId;
        return e;
    }

    public static LongconnEvent presence(
            long ts, String deviceId, boolean online, String appVersion) {
        LongconnEvent e = of(ts, PRESENCE, deviceId);
        e.online = online;
        e.appVersion = appVersion;
        return e;
    }

    private static LongconnEvent of(long ts, String type, String deviceId) {
        LongconnEvent e = new LongconnEvent();
        e.ts = ts;
        e.type = type;
        e.deviceId = deviceId;
        return e;
    }

    @Override
    public String toString() {
        return "LongconnEvent{" + type + " " + msgId + " " + deviceId + "@" + ts + "#" + seq + "}";
    }
}
