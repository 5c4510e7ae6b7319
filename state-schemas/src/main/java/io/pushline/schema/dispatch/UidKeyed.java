package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;
import io.pushline.schema.registry.DeviceInfo;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * Input of the uid index operator, keyed by uid: a change of one of the uid's devices (from the
 * registry), or a request that targets the uid. For a change, {@code device} is the new binding or
 * null when the device left the uid.
 */
@TypeInfo(UidKeyedSerializer.Factory.class)
public class UidKeyed {
    public String uid;
    public PushRequest request;

    /** Set for a change; {@code device} may then be null (removed). */
    public String deviceId;

    public DeviceInfo device;
    public long ts;
    public long seq;

    public UidKeyed() {}

    public static UidKeyed request(String uid, PushRequest p) {
        UidKeyed k = new UidKeyed();
        k.uid = uid;
        k.request = p;
        k.ts = p.ts;
        k.seq = p.seq;
        return k;
    }

    public static UidKeyed change(
            String uid, String deviceId, DeviceInfo device, long ts, long seq) {
        UidKeyed k = new UidKeyed();
        k.uid = uid;
        k.deviceId = deviceId;
        k.device = device;
        k.ts = ts;
        k.seq = seq;
        return k;
    }

    public boolean isRequest() {
        return request != null;
    }
}
