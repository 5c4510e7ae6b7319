package io.pushline.dispatch.registry;

import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.dispatch.Delivery;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryState;
import io.pushline.udf.EventTimeBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The uid index, keyed by uid: which devices each uid has, as the registry reports them. Resolves
 * requests that target the uid to one delivery per bound device, or a {@code no_device} drop.
 */
public class UidIndexFunction extends KeyedProcessFunction<String, UidKeyed, Delivery>
        implements CheckpointedFunction {
    private transient MapState<String, DeviceInfo> devices;
    private transient EventTimeBuffer<UidKeyed> buffer;

    @Override
    public void open(OpenContext openContext) {
        devices = getRuntimeContext().getMapState(RegistryState.uidDevices());
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) throws Exception {
        buffer =
                new EventTimeBuffer<>(
                        "uid-buffer",
                        UidKeyed.class,
                        k -> k.uid,
                        k -> k.ts,
                        Comparator.comparingLong(k -> k.seq),
                        EventTimeBuffer.DEFAULT_MAX_ON_HEAP);
        buffer.initialize(ctx, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
        buffer.snapshot();
    }

    @Override
    public void processElement(UidKeyed in, Context ctx, Collector<Delivery> out) throws Exception {
        buffer.add(ctx.getCurrentKey(), in, in.ts, ctx.timerService());
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<Delivery> out) throws Exception {
        for (UidKeyed in : buffer.release(ctx.getCurrentKey(), ts)) {
            if (!in.isRequest()) {
                if (in.device == null) {
                    devices.remove(in.deviceId);
                } else {
                    devices.put(in.deviceId, in.device);
                }
                continue;
            }
            List<DeviceInfo> bound = new ArrayList<>();
            for (Map.Entry<String, DeviceInfo> e : devices.entries()) {
                bound.add(e.getValue());
            }
            if (bound.isEmpty()) {
                ctx.output(
                        DispatchTags.DECISIONS,
                        Decision.drop(in.request, in.uid, null, DropReason.NO_DEVICE));
            }
            for (DeviceInfo d : bound) {
                out.collect(Delivery.of(in.request, d));
            }
        }
    }
}
