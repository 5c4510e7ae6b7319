package io.pushline.schema.longconn;

import java.time.Duration;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Keyed state of the long-connection ack tracker (keyed by deviceId). The TTL is processing time
 * and only collects garbage (a device that was never heard of again): the tracker's own event-time
 * timers decide when a pair stops being tracked.
 */
public final class LongconnState {
    private LongconnState() {}

    public static ValueStateDescriptor<DeviceLink> device(Duration ttl) {
        ValueStateDescriptor<DeviceLink> d =
                new ValueStateDescriptor<>("longconn-device", TypeInformation.of(DeviceLink.class));
        d.enableTimeToLive(ttl(ttl));
        return d;
    }

    /** The device's tracked messages by msgId. */
    public static MapStateDescriptor<String, TrackedSend> tracked(Duration ttl) {
        MapStateDescriptor<String, TrackedSend> d =
                new MapStateDescriptor<>(
                        "longconn-tracked", Types.STRING, TypeInformation.of(TrackedSend.class));
        d.enableTimeToLive(ttl(ttl));
        return d;
    }

    private static StateTtlConfig ttl(Duration ttl) {
        return StateTtlConfig.newBuilder(ttl)
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .cleanupInRocksdbCompactFilter(1000)
                .build();
    }
}
