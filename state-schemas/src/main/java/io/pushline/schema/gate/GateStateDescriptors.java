package io.pushline.schema.gate;

import io.pushline.schema.ChunkSerializer;
import io.pushline.schema.StateTtl;
import io.pushline.schema.dispatch.DevicePush;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/** State of the gate operator. Names are part of savepoint compatibility: never rename. */
public final class GateStateDescriptors {
    private GateStateDescriptors() {}

    /**
     * The device's gate memory, with a processing-time TTL that only collects devices nobody has
     * pushed to for longer than any rule looks back ({@code ttl} is checked against the rules).
     */
    public static ValueStateDescriptor<GateState> device(Duration ttl) {
        ValueStateDescriptor<GateState> d =
                new ValueStateDescriptor<>("gate-device", TypeInformation.of(GateState.class));
        d.enableTimeToLive(StateTtl.garbageOnly(ttl));
        return d;
    }

    /**
     * The pushes waiting for the watermark whose records are on the heap, written at each
     * checkpoint (union state: on restore each subtask keeps the devices it owns). The name is the
     * one the earlier per-device buffer used, so its snapshots restore.
     */
    public static ListStateDescriptor<DevicePush> waitingOnHeap() {
        return new ListStateDescriptor<>("gate-buffer-heap", TypeInformation.of(DevicePush.class));
    }

    /** The waiting pushes whose records were spilled to {@link #spill()}, at each checkpoint. */
    public static ListStateDescriptor<SpilledPush> waitingSpilled() {
        return new ListStateDescriptor<>(
                "gate-queue-spilled", TypeInformation.of(SpilledPush.class));
    }

    /**
     * The pushes waiting on the heap at a checkpoint, in chunks: replaces {@link #waitingOnHeap}
     * (one element per push, still read on restore), as a checkpoint stream notes its position for
     * every element, a write to the file each time.
     */
    public static ListStateDescriptor<List<DevicePush>> waitingOnHeapChunks() {
        return new ListStateDescriptor<>(
                "gate-buffer-heap-chunks",
                ChunkSerializer.typeOf(TypeInformation.of(DevicePush.class)));
    }

    /** {@link #waitingSpilled}'s places, in chunks. */
    public static ListStateDescriptor<List<SpilledPush>> waitingSpilledChunks() {
        return new ListStateDescriptor<>(
                "gate-queue-spilled-chunks",
                ChunkSerializer.typeOf(TypeInformation.of(SpilledPush.class)));
    }

    /** Per device: spilled waiting records by their queue reference. */
    public static MapStateDescriptor<Long, DevicePush> spill() {
        return new MapStateDescriptor<>(
                "gate-queue-spill", Types.LONG, TypeInformation.of(DevicePush.class));
    }

    /** Broadcast state: the rules document in force, under the key {@link #CURRENT_RULES}. */
    public static MapStateDescriptor<String, String> rules() {
        return new MapStateDescriptor<>("gate-rules", Types.STRING, Types.STRING);
    }

    public static final String CURRENT_RULES = "current";
}
