package io.pushline.dispatch.registry;

import io.pushline.schema.Decision;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.Delivery;
import io.pushline.schema.dispatch.DeviceKeyed;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.registry.RegistryState;
import io.pushline.udf.EventTimeBuffer;
import java.util.Comparator;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The device registry, keyed by deviceId. Applies bind, unbind and switch in event-time order;
 * resolves requests that target the device by id. Every change of a binding also goes to the uid
 * index ({@link DispatchTags#UID_KEYED}) and to HBase ({@link DispatchTags#REGISTRY_CHANGES}).
 */
public class RegistryFunction extends KeyedProcessFunction<String, DeviceKeyed, Delivery>
        implements CheckpointedFunction {
    private transient ValueState<DeviceInfo> device;
    private transient EventTimeBuffer<DeviceKeyed> buffer;
    private transient Counter binds;
    private transient Counter unbinds;
    private transient Counter switches;
    private transient Counter ignoredSwitches;

    @Override
    public void open(OpenContext openContext) {
        device = getRuntimeContext().getState(RegistryState.device());
        var metrics = getRuntimeContext().getMetricGroup().addGroup("registry");
        binds = metrics.addGroup("event", "bind").counter("deviceEvents");
        unbinds = metrics.addGroup("event", "unbind").counter("deviceEvents");
        switches = metrics.addGroup("event", "switch").counter("deviceEvents");
        ignoredSwitches = metrics.counter("switchesForUnboundDevices");
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) throws Exception {
        buffer =
                new EventTimeBuffer<>(
                        "registry-buffer",
                        DeviceKeyed.class,
                        k -> k.deviceId,
                        DeviceKeyed::ts,
                        Comparator.comparingLong(DeviceKeyed::seq),
                        EventTimeBuffer.DEFAULT_MAX_ON_HEAP);
        buffer.initialize(ctx, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
        buffer.snapshot();
    }

    @Override
    public void processElement(DeviceKeyed in, Context ctx, Collector<Delivery> out)
            throws Exception {
        buffer.add(ctx.getCurrentKey(), in, in.ts(), ctx.timerService());
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<Delivery> out) throws Exception {
        for (DeviceKeyed in : buffer.release(ctx.getCurrentKey(), ts)) {
            if (in.event != null) {
                apply(in.event, ctx);
            } else {
                resolve(in.deviceId, in.request, ctx, out);
            }
        }
    }

    private void resolve(
            String deviceId, PushRequest request, OnTimerContext ctx, Collector<Delivery> out)
            throws Exception {
        DeviceInfo bound = device.value();
        if (bound == null) {
            ctx.output(
                    DispatchTags.DECISIONS,
                    Decision.drop(request, null, deviceId, DropReason.NO_DEVICE));
        } else {
            out.collect(Delivery.of(request, bound));
        }
    }

    private void apply(DeviceEvent e, OnTimerContext ctx) throws Exception {
        DeviceInfo before = device.value();
        DeviceInfo after;
        switch (e.type) {
            case DeviceEvent.BIND:
                binds.inc();
                after = new DeviceInfo();
                after.deviceId = e.deviceId;
                after.uid = e.uid;
                after.vendor = e.vendor;
                after.token = e.token;
                after.tz = e.tz;
                after.pushEnabled = e.pushEnabled == null || e.pushEnabled;
                after.boundTs = e.ts;
                after.updatedTs = e.ts;
                break;
            case DeviceEvent.UNBIND:
                unbinds.inc();
                if (before == null) {
                    return;
                }
                after = null;
                break;
            case DeviceEvent.SWITCH:
                if (before == null) {
                    // The contract ignores a switch for a device nobody has bound.
                    ignoredSwitches.inc();
                    return;
                }
                switches.inc();
                after = before.copy();
                after.pushEnabled = e.enabled;
                after.updatedTs = e.ts;
                break;
            default:
                throw new IllegalStateException("parser let through type " + e.type);
        }
        if (after == null) {
            device.clear();
        } else {
            device.update(after);
        }
        String oldUid = before == null ? null : before.uid;
        if (oldUid != null && (after == null || !oldUid.equals(after.uid))) {
            ctx.output(
                    DispatchTags.UID_KEYED, UidKeyed.change(oldUid, e.deviceId, null, e.ts, e.seq));
        }
        if (after != null) {
            ctx.output(
                    DispatchTags.UID_KEYED,
                    UidKeyed.change(after.uid, e.deviceId, after, e.ts, e.seq));
        }
        if (!Objects.equals(before, after)) {
            ctx.output(
                    DispatchTags.REGISTRY_CHANGES,
                    RegistryChange.of(e.deviceId, after, oldUid, e.ts));
        }
    }
}
