package io.pushline.schema.registry;

import io.pushline.schema.ChunkSerializer;
import io.pushline.schema.gate.SpilledPush;
import java.util.List;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Keyed state of the device registry. Names are part of savepoint compatibility: never rename.
 *
 * <p>No TTL here on purpose: a binding is live until an unbind, however long the device stays
 * quiet, and an unbind clears it.
 */
public final class RegistryState {
    private RegistryState() {}

    /** Registry operator, keyed by deviceId: the device's current binding, absent when unbound. */
    public static ValueStateDescriptor<DeviceInfo> device() {
        return new ValueStateDescriptor<>("registry-device", TypeInformation.of(DeviceInfo.class));
    }

    /** Uid index operator, keyed by uid: deviceId to binding of every device bound to the uid. */
    public static MapStateDescriptor<String, DeviceInfo> uidDevices() {
        return new MapStateDescriptor<>(
                "registry-uid-devices", Types.STRING, TypeInformation.of(DeviceInfo.class));
    }

    /**
     * Operator state of an ordered stage ({@code name}: registry-buffer, uid-buffer): the records
     * waiting on the heap at a checkpoint. The name and type are those of the earlier per-key
     * buffer, so its savepoints restore into the queue.
     */
    public static <T> ListStateDescriptor<T> waitingOnHeap(String name, Class<T> type) {
        return new ListStateDescriptor<>(name + "-heap", TypeInformation.of(type));
    }

    /** Operator state of an ordered stage: the places of the records spilled to RocksDB. */
    public static ListStateDescriptor<SpilledPush> waitingSpilled(String name) {
        return new ListStateDescriptor<>(
                name + "-queue-spilled", TypeInformation.of(SpilledPush.class));
    }

    /**
     * Operator state of an ordered stage: the records waiting on the heap at a checkpoint, in
     * chunks. Replaces {@link #waitingOnHeap}, one element per record, which a restore still reads:
     * a checkpoint stream notes its position for every element, a write to the file each time.
     */
    public static <T> ListStateDescriptor<List<T>> waitingOnHeapChunks(String name, Class<T> type) {
        return new ListStateDescriptor<>(
                name + "-heap-chunks", ChunkSerializer.typeOf(TypeInformation.of(type)));
    }

    /** Operator state of an ordered stage: {@link #waitingSpilled}'s places, in chunks. */
    public static ListStateDescriptor<List<SpilledPush>> waitingSpilledChunks(String name) {
        return new ListStateDescriptor<>(
                name + "-queue-spilled-chunks",
                ChunkSerializer.typeOf(TypeInformation.of(SpilledPush.class)));
    }

    /** Keyed state of an ordered stage: spilled records by their place in the queue. */
    public static <T> MapStateDescriptor<Long, T> spill(String name, Class<T> type) {
        return new MapStateDescriptor<>(
                name + "-queue-spill", Types.LONG, TypeInformation.of(type));
    }

    /**
     * The earlier per-key buffer's spill (read once on restore, then cleared): timestamp to the
     * records waiting for it.
     */
    public static <T> MapStateDescriptor<Long, List<T>> buffer(String name, Class<T> type) {
        return new MapStateDescriptor<>(name, Types.LONG, Types.LIST(TypeInformation.of(type)));
    }

    /** The earlier per-key buffer's operator state: the keys that had spilled records. */
    public static ListStateDescriptor<String> bufferSpilledKeys(String name) {
        return new ListStateDescriptor<>(name + "-spilled-keys", Types.STRING);
    }
}
