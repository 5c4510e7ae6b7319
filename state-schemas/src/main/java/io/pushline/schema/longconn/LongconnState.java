package io.pushline.schema.longconn;

import io.pushline.schema.StateTtl;
import java.time.Duration;
import org.apache.flink.api.common.state.ValueStateDescriptor;

/**
 * Keyed state of the long-connection ack tracker (keyed by deviceId). The TTL is processing time
 * and only collects garbage (a device never heard of again): the tracker's own event-time timers
 * decide when a message stops being tracked.
 */
public final class LongconnState {
    private LongconnState() {}

    public static ValueStateDescriptor<DeviceLink> device(Duration ttl) {
        ValueStateDescriptor<DeviceLink> d =
                new ValueStateDescriptor<>("longconn-device", DeviceLinkSerializer.INSTANCE);
        d.enableTimeToLive(StateTtl.garbageOnly(ttl));
        return d;
    }
}
