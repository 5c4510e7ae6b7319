package io.pushline.dispatch.registry;

import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryState;
import io.pushline.udf.EventTimeOrderedOperator;
import io.pushline.udf.EventTimeQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;

/**
 * The uid index, keyed by uid: which devices each uid has, as the registry reports them. Resolves
 * requests that target the uid to one delivery per bound device, or a {@code no_device} drop.
 * Changes and requests are applied in event-time order ({@link EventTimeOrderedOperator}).
 */
public class UidIndexOperator extends EventTimeOrderedOperator<UidKeyed, DevicePush> {
    private static final long serialVersionUID = 1L;

    private transient MapState<String, DeviceInfo> devices;

    public UidIndexOperator() {
        this(EventTimeQueue.DEFAULT_MAX_ON_HEAP);
    }

    public UidIndexOperator(int maxOnHeap) {
        super("uid-buffer", UidKeyed.class, maxOnHeap);
    }

    @Override
    public void open() throws Exception {
        super.open();
        devices = getRuntimeContext().getMapState(RegistryState.uidDevices());
    }

    @Override
    protected String keyOf(UidKeyed k) {
        return k.uid;
    }

    @Override
    protected long tsOf(UidKeyed k) {
        return k.ts;
    }

    @Override
    protected long seqOf(UidKeyed k) {
        return k.seq;
    }

    @Override
    protected String positionOf(UidKeyed in) {
        return in.isRequest() ? "msgId " + in.request.msgId : "deviceId " + in.deviceId;
    }

    @Override
    protected void handle(UidKeyed in, long ts) throws Exception {
        if (!in.isRequest()) {
            if (in.device == null) {
                devices.remove(in.deviceId);
            } else {
                devices.put(in.deviceId, in.device);
            }
            return;
        }
        List<DeviceInfo> bound = new ArrayList<>();
        for (Map.Entry<String, DeviceInfo> e : devices.entries()) {
            bound.add(e.getValue());
        }
        if (bound.isEmpty()) {
            emit(
                    DispatchTags.DECISIONS,
                    Decision.drop(in.request, in.uid, null, DropReason.NO_DEVICE),
                    ts);
        }
        for (DeviceInfo d : bound) {
            emit(DevicePush.of(in.request, d), ts);
        }
    }
}
