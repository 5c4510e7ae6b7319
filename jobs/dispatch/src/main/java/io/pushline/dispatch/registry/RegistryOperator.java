package io.pushline.dispatch.registry;

import io.pushline.schema.Decision;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.registry.RegistryState;
import io.pushline.udf.EventTimeOrderedOperator;
import io.pushline.udf.EventTimeQueue;
import java.util.Objects;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;

/**
 * The device registry, keyed by deviceId. Applies bind, unbind and switch in event-time order (an
 * unbind that names a token only if the device is bound with that token); resolves requests that
 * target the device by id. Every change of a binding also goes to the uid index ({@link
 * DispatchTags#UID_KEYED}) and to HBase ({@link DispatchTags#REGISTRY_CHANGES}).
 */
public class RegistryOperator extends EventTimeOrderedOperator<RegistryInput, DevicePush> {
    private static final long serialVersionUID = 1L;

    private transient ValueState<DeviceInfo> device;
    private transient Counter binds;
    private transient Counter unbinds;
    private transient Counter staleUnbinds;
    private transient Counter switches;
    private transient Counter ignoredSwitches;

    public RegistryOperator() {
        this(EventTimeQueue.DEFAULT_MAX_ON_HEAP);
    }

    public RegistryOperator(int maxOnHeap) {
        super("registry-buffer", RegistryInput.class, maxOnHeap);
    }

    @Override
    public void open() throws Exception {
        super.open();
        device = getRuntimeContext().getState(RegistryState.device());
        var metrics = getRuntimeContext().getMetricGroup().addGroup("registry");
        binds = metrics.addGroup("event", "bind").counter("deviceEvents");
        unbinds = metrics.addGroup("event", "unbind").counter("deviceEvents");
        switches = metrics.addGroup("event", "switch").counter("deviceEvents");
        ignoredSwitches = metrics.counter("switchesForUnboundDevices");
        staleUnbinds = metrics.counter("unbindsForAnotherToken");
    }

    @Override
    protected String keyOf(RegistryInput k) {
        return k.deviceId;
    }

    @Override
    protected long tsOf(RegistryInput k) {
        return k.ts();
    }

    @Override
    protected long seqOf(RegistryInput k) {
        return k.seq();
    }

    @Override
    protected String positionOf(RegistryInput in) {
        return in.event != null
                ? "deviceId " + in.deviceId
                : "msgId " + in.request.msgId + ", deviceId " + in.deviceId;
    }

    @Override
    protected void handle(RegistryInput in, long ts) throws Exception {
        if (in.event != null) {
            apply(in.event);
        } else {
            resolve(in.deviceId, in.request, ts);
        }
    }

    private void resolve(String deviceId, PushRequest request, long ts) throws Exception {
        DeviceInfo bound = device.value();
        if (bound == null) {
            emit(
                    DispatchTags.DECISIONS,
                    Decision.drop(request, null, deviceId, DropReason.NO_DEVICE),
                    ts);
        } else {
            emit(DevicePush.of(request, bound), ts);
        }
        if (bound != null && bound.uid != null && request.toInbox()) {
            emit(
                    DispatchTags.INBOX,
                    InboxOp.add(bound.uid, request.msgId, request.title, request.body, request.ts),
                    ts);
        }
    }

    private void apply(DeviceEvent e) throws Exception {
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
                after.fallback = e.fallback;
                after.boundTs = e.ts;
                after.updatedTs = e.ts;
                break;
            case DeviceEvent.UNBIND:
                if (before == null) {
                    unbinds.inc();
                    return;
                }
                if (e.token != null && !e.token.equals(before.token)) {
                    // a refused token of an earlier binding, or a forged report: not this one's
                    staleUnbinds.inc();
                    return;
                }
                unbinds.inc();
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
            emit(
                    DispatchTags.UID_KEYED,
                    UidKeyed.change(oldUid, e.deviceId, null, e.ts, e.seq),
                    e.ts);
        }
        if (after != null) {
            emit(
                    DispatchTags.UID_KEYED,
                    UidKeyed.change(after.uid, e.deviceId, after, e.ts, e.seq),
                    e.ts);
        }
        if (!Objects.equals(before, after)) {
            emit(
                    DispatchTags.REGISTRY_CHANGES,
                    RegistryChange.of(e.deviceId, after, oldUid, e.ts),
                    e.ts);
        }
    }
}
