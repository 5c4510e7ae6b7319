package io.pushline.longconn;

import io.pushline.schema.longconn.DeviceLink;
import io.pushline.schema.longconn.DeviceLinkSerializer;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The ack tracker's device state, read and written through a cache for one watermark step, as Flink
 * SQL's mini-batch aggregation does: a device's state is read from RocksDB once in a step and
 * written back once at its end. When the job catches up, a step spans seconds of event time, and
 * most messages are sent and acked within one: they then cost RocksDB no write at all, where each
 * used to cost two writes and two reads (a send's bytes written, then deleted).
 *
 * <p>Callers get a copy and put it back when they changed it, so a record that fails half way
 * leaves nothing half changed. The operator flushes at the end of each step and before each
 * checkpoint, and the operator flushes it once it holds {@link #MAX_DEVICES} devices, so it stays
 * small however much a step releases.
 */
final class DeviceLinks {
    static final int MAX_DEVICES = 50_000;

    private final ValueState<DeviceLink> state;
    private final KeyContext keys;
    private final int maxDevices;
    private final Map<String, Cached> step = new HashMap<>();

    private static final class Cached {
        DeviceLink link;
        boolean stored;
        boolean changed;
    }

    DeviceLinks(ValueState<DeviceLink> state, KeyContext keys, int maxDevices) {
        this.state = state;
        this.keys = keys;
        this.maxDevices = maxDevices;
    }

    /** The device's state, to change and {@link #put}; the current key must be {@code deviceId}. */
    DeviceLink get(String deviceId) throws Exception {
        Cached c = step.get(deviceId);
        if (c == null) {
            c = new Cached();
            c.link = state.value();
            c.stored = c.link != null;
            step.put(deviceId, c);
        }
        return c.link == null ? new DeviceLink() : DeviceLinkSerializer.INSTANCE.copy(c.link);
    }

    /** The device's state is now {@code link}, which {@link #get} returned for it. */
    void put(String deviceId, DeviceLink link) {
        Cached c = step.get(deviceId);
        c.link = link.empty() ? null : link;
        c.changed = true;
    }

    /** Whether the cache should be flushed before the next record. */
    boolean full() {
        return step.size() >= maxDevices;
    }

    /** Writes what changed to RocksDB and empties the cache; changes the current key. */
    void flush() throws Exception {
        for (Map.Entry<String, Cached> e : step.entrySet()) {
            Cached c = e.getValue();
            if (!c.changed || (c.link == null && !c.stored)) {
                continue;
            }
            keys.setCurrentKey(e.getKey());
            if (c.link == null) {
                state.clear();
            } else {
                state.update(c.link);
            }
        }
        step.clear();
    }
}
