package io.pushline.schema.longconn;

import io.pushline.schema.ChunkSerializer;
import io.pushline.schema.StateTtl;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;

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

    /**
     * Operator state (union, in chunks): the devices a checkpoint wrote from the tracker's heap
     * whose tracked messages had no timer yet. A restore registers their timers from their state;
     * each subtask takes the devices of its key groups.
     */
    public static ListStateDescriptor<List<String>> untimedDevices() {
        return new ListStateDescriptor<>(
                "longconn-untimed-devices", ChunkSerializer.typeOf(Types.STRING));
    }
}
