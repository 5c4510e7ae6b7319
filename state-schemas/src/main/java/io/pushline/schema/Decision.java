package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A record of {@code push.decisions}: the gate's outcome for one (push, device). The first six
 * fields are exactly a line of {@code pushline replay}'s output; {@code code}, {@code msgType} and
 * {@code ts} (the push's event time) are for the receipts job.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({
    "msgId",
    "uid",
    "deviceId",
    "vendor",
    "decision",
    "reason",
    "code",
    "msgType",
    "ts"
})
@TypeInfo(DecisionSerializer.Factory.class)
public class Decision {
    public static final String PASS = "PASS";
    public static final String DROP = "DROP";

    public String msgId;
    public String uid;
    public String deviceId;
    public String vendor;
    public String decision;
    public String reason;
    public int code;
    public String msgType;
    public long ts;

    /** The request's position among requests of equal ts; orders replay output, not on the wire. */
    @JsonIgnore public long seq;

    public Decision() {}

    public static Decision pass(PushRequest p, String uid, String deviceId, String vendor) {
        Decision d = of(p, uid, deviceId);
        d.vendor = vendor;
        d.decision = PASS;
        d.code = DropReason.PASS_CODE;
        return d;
    }

    public static Decision drop(PushRequest p, String uid, String deviceId, DropReason reason) {
        Decision d = of(p, uid, deviceId);
        d.decision = DROP;
        d.reason = reason.wireName();
        d.code = reason.code();
        return d;
    }

    private static Decision of(PushRequest p, String uid, String deviceId) {
        Decision d = new Decision();
        d.msgId = p.msgId;
        d.msgType = p.msgType;
        d.ts = p.ts;
        d.seq = p.seq;
        d.uid = uid;
        d.deviceId = deviceId;
        return d;
    }

    @JsonIgnore
    public boolean isPass() {
        return PASS.equals(decision);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Decision)) {
            return false;
        }
        Decision d = (Decision) o;
        return code == d.code
                && ts == d.ts
                && Objects.equals(msgId, d.msgId)
                && Objects.equals(uid, d.uid)
                && Objects.equals(deviceId, d.deviceId)
                && Objects.equals(vendor, d.vendor)
                && Objects.equals(decision, d.decision)
                && Objects.equals(reason, d.reason)
                && Objects.equals(msgType, d.msgType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(msgId, uid, deviceId, decision);
    }

    @Override
    public String toString() {
        return Json.write(this);
    }
}
