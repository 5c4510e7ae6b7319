package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;
import io.pushline.schema.registry.DeviceInfo;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A request resolved to one bound device, with the binding as it was at the request's event time:
 * the input of the gate, keyed by deviceId.
 */
@TypeInfo(DeliverySerializer.Factory.class)
public class Delivery {
    public PushRequest request;
    public DeviceInfo device;

    public Delivery() {}

    public static Delivery of(PushRequest p, DeviceInfo device) {
        Delivery d = new Delivery();
        d.request = p;
        d.device = device;
        return d;
    }
}
