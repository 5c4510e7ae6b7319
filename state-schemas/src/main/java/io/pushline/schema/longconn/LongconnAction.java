package io.pushline.schema.longconn;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What the ack tracker did with one (msgId, deviceId): exactly a line of {@code pushline longconn
 * replay}'s output. Travels with {@link LongconnActionSerializer}. In the streaming job a {@link
 * #RETRY} or {@link #FALLBACK} also carries the send to make, and the tracker's position orders
 * actions of equal time.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"ts", "msgId", "deviceId", "action", "attempt", "delayMs"})
@TypeInfo(LongconnActionSerializer.Factory.class)
public class LongconnAction {
    public static final String RETRY = "retry";
    public static final String FALLBACK = "fallback";
    public static final String GIVE_UP = "give_up";
    public static final String ACKED = "acked";
    public static final String UNTRACKED = "untracked";

    public long ts;
    public String msgId;
    public String deviceId;
    public String action;
    public int attempt;
    public Long delayMs;

    /**
     * A retry's send (to the long connection again, with its attempt number) or a fallback's (to
     * the device's fallback vendor, with that token); null for a fallback without a channel, and in
     * a replay.
     */
    @JsonIgnore public SendBytes send;

    /**
     * Orders actions of equal {@code ts} as they happened: those caused by an input event carry its
     * seq, and come before retries due at the same time, which are ordered by msgId and deviceId.
     */
    @JsonIgnore public long seq;

    @JsonIgnore public boolean fromTimer;

    public LongconnAction() {}

    public static LongconnAction of(
            long ts, String msgId, String deviceId, String action, int attempt, Long delayMs) {
        LongconnAction a = new LongconnAction();
        a.ts = ts;
        a.msgId = msgId;
        a.deviceId = deviceId;
        a.action = action;
        a.attempt = attempt;
        a.delayMs = delayMs;
        return a;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LongconnAction)) {
            return false;
        }
        LongconnAction a = (LongconnAction) o;
        return ts == a.ts
                && attempt == a.attempt
                && Objects.equals(msgId, a.msgId)
                && Objects.equals(deviceId, a.deviceId)
                && Objects.equals(action, a.action)
                && Objects.equals(delayMs, a.delayMs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ts, msgId, deviceId, action);
    }

    @Override
    public String toString() {
        return "LongconnAction{" + action + " " + msgId + " " + deviceId + "@" + ts + "}";
    }
}
