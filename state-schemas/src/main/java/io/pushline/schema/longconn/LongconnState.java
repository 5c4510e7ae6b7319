package io.pushline.schema.longconn;

import java.time.Duration;
import org.apache.flink.api.common.state.StateTtlConfig;
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
        d.enableTimeToLive(
                StateTtlConfig.newBuilder(ttl)
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .cleanupInRocksdbCompactFilter(1000)
                        .build());
        return d;
    }
}
