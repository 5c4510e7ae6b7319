package io.pushline.gate;

import io.pushline.dispatch.EventTimeBuffer;
import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SendRecord;
import io.pushline.schema.dispatch.Delivery;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryState;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The per-device gate, keyed by deviceId: decides each delivery in event-time order and emits a
 * decision for it; a PASS also becomes a send record ({@link DispatchTags#SENDS}).
 *
 * <p>This slice applies the registry's part of the contract ({@code push_disabled}); the rules of
 * dispatch-filters.md (dedupe, quiet hours, intervals, caps, whitelists) belong in {@link #decide},
 * with their state next to the buffer's.
 */
public class GateFunction extends KeyedProcessFunction<String, Delivery, Decision> {
    private transient EventTimeBuffer<Delivery> buffer;
    private transient MetricGroup metrics;
    private transient Map<String, Counter> counters;

    @Override
    public void open(OpenContext openContext) {
        buffer =
                new EventTimeBuffer<>(
                        getRuntimeContext()
                                .getMapState(RegistryState.buffer("gate-buffer", Delivery.class)),
                        Comparator.comparingLong(d -> d.request.seq));
        metrics = getRuntimeContext().getMetricGroup().addGroup("gate");
        counters = new HashMap<>();
    }

    @Override
    public void processElement(Delivery in, Context ctx, Collector<Decision> out) throws Exception {
        buffer.add(in, in.request.ts, ctx.timerService());
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<Decision> out) throws Exception {
        for (Delivery d : buffer.release(ts)) {
            DropReason drop = decide(d);
            DeviceInfo device = d.device;
            Decision decision =
                    drop == null
                            ? Decision.pass(d.request, device.uid, device.deviceId, device.vendor)
                            : Decision.drop(d.request, device.uid, device.deviceId, drop);
            count(decision, device.vendor);
            out.collect(decision);
            if (drop == null) {
                ctx.output(DispatchTags.SENDS, send(d.request, device));
            }
        }
    }

    /** The reason to drop this delivery, or null to pass it. */
    protected DropReason decide(Delivery d) {
        if (!d.device.pushEnabled) {
            return DropReason.PUSH_DISABLED;
        }
        return null;
    }

    static SendRecord send(PushRequest p, DeviceInfo device) {
        SendRecord s = new SendRecord();
        s.msgId = p.msgId;
        s.msgType = p.msgType;
        s.level = p.level != null ? p.level : 1;
        s.uid = device.uid;
        s.deviceId = device.deviceId;
        s.vendor = device.vendor;
        s.token = device.token;
        s.title = p.title;
        s.body = p.body;
        s.ts = p.ts;
        return s;
    }

    private void count(Decision d, String vendor) {
        String reason = d.reason == null ? "pass" : d.reason;
        String key = reason + '\u0000' + d.msgType + '\u0000' + vendor;
        counters.computeIfAbsent(
                        key,
                        k ->
                                metrics.addGroup("reason", reason)
                                        .addGroup("msgType", d.msgType)
                                        .addGroup("vendor", vendor)
                                        .counter("decisions"))
                .inc();
    }
}
