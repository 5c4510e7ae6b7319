package io.pushline.schema.dispatch;

import io.pushline.schema.DeviceEvent;
import io.pushline.schema.PushRequest;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * Input of the registry operator, keyed by deviceId: a device event, or a request that targets the
 * device by id. Exactly one of the two is set.
 */
@TypeInfo(RegistryInputSerializer.Factory.class)
public class RegistryInput {
    public String deviceId;
    public DeviceEvent event;
    public PushRequest request;

    public RegistryInput() {}

    public static RegistryInput of(DeviceEvent e) {
        RegistryInput k = new RegistryInput();
        k.deviceId = e.deviceId;
        k.event = e;
        return k;
    }

    public static RegistryInput of(String deviceId, PushRequest p) {
        RegistryInput k = new RegistryInput();
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
