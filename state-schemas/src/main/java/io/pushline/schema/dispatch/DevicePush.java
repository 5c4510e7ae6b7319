package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;
import io.pushline.schema.registry.DeviceInfo;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A request resolved to one bound device, with the binding as it was at the request's event time:
 * the input of the gate, keyed by deviceId.
 */
@TypeInfo(DevicePushSerializer.Factory.class)
public class DevicePush {
    public PushRequest request;
    public DeviceInfo device;

    public DevicePush() {}

    public static DevicePush of(PushRequest p, DeviceInfo device) {
        DevicePush d = new DevicePush();
        d.request = p;
        d.device = device;
        return d;
    }
}
