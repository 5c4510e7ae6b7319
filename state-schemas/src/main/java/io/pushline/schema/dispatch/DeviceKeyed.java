package io.pushline.schema.dispatch;

import io.pushline.schema.DeviceEvent;
import io.pushline.schema.PushRequest;

/**
 * Input of the registry operator, keyed by deviceId: a device event, or a request that targets the
 * device by id. Exactly one of the two is set.
 */
public class DeviceKeyed {
    public String deviceId;
    public DeviceEvent event;
    public PushRequest request;

    public DeviceKeyed() {}

    public static DeviceKeyed of(DeviceEvent e) {
        DeviceKeyed k = new DeviceKeyed();
        k.deviceId = e.deviceId;
        k.event = e;
        return k;
    }

    public static DeviceKeyed of(String deviceId, PushRequest p) {
        DeviceKeyed k = new DeviceKeyed();
        k.deviceId = deviceId;
        k.request = p;
        return k;
    }

    public long ts() {
        return event != null ? event.ts : request.ts;
    }

    public long seq() {
        return event != null ? event.seq : request.seq;
    }
}
