package io.pushline.gate;

import io.pushline.dispatch.EventTimeBuffer;
import io.pushline.schema.Decision;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SendRecord;
import io.pushline.schema.dispatch.Delivery;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.gate.GateStateDescriptors;
import io.pushline.schema.registry.DeviceInfo;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-device gate, keyed by deviceId: decides each delivery in event-time order by the rules of
 * dispatch-filters.md ({@link GateEngine}) and emits its decision; a PASS also becomes a send
 * ({@link DispatchTags#SENDS}). New rules arrive on the broadcast input (already checked by {@link
 * RulesUpdates}) and apply from the next decision on.
 */
public class GateFunction extends KeyedBroadcastProcessFunction<String, Delivery, String, Decision>
        implements CheckpointedFunction {
    private static final Logger LOG = LoggerFactory.getLogger(GateFunction.class);

    private final String initialRules;
    private final Duration stateTtl;

    private transient ValueState<GateState> device;
    private transient EventTimeBuffer<Delivery> buffer;
    private transient String currentText;
    private transient Rules current;
    private transient MetricGroup metrics;

    /** Decision counters by reason, msgType and vendor: nested, so counting allocates nothing. */
    private transient Map<String, Map<String, Map<String, Counter>>> counters;

    /**
     * @param initialRules the rules document in force until the broadcast input brings another
     * @param stateTtl how long an untouched device's gate memory is kept; at least every rule's
     *     look-back ({@link Rules#lookBack()})
     */
    public GateFunction(String initialRules, Duration stateTtl) {
        this.initialRules = initialRules;
        this.stateTtl = stateTtl;
        RulesUpdates.check(RulesParser.parse(initialRules), stateTtl);
    }

    @Override
    public void open(OpenContext openContext) {
        device = getRuntimeContext().getState(GateStateDescriptors.device(stateTtl));
        metrics = getRuntimeContext().getMetricGroup().addGroup("gate");
        counters = new HashMap<>();
        currentText = initialRules;
        current = RulesParser.parse(initialRules);
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) throws Exception {
        buffer =
                new EventTimeBuffer<>(
                        "gate-buffer",
                        Delivery.class,
                        d -> d.device.deviceId,
                        d -> d.request.ts,
                        Comparator.comparingLong(d -> d.request.seq),
                        EventTimeBuffer.DEFAULT_MAX_ON_HEAP);
        buffer.initialize(ctx, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
        buffer.snapshot();
    }

    @Override
    public void processElement(Delivery in, ReadOnlyContext ctx, Collector<Decision> out)
            throws Exception {
        buffer.add(ctx.getCurrentKey(), in, in.request.ts, ctx.timerService());
    }

    @Override
    public void processBroadcastElement(String rules, Context ctx, Collector<Decision> out)
            throws Exception {
        ctx.getBroadcastState(GateStateDescriptors.rules())
                .put(GateStateDescriptors.CURRENT_RULES, rules);
        LOG.info("gate rules replaced ({} characters)", rules.length());
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<Decision> out) throws Exception {
        Rules rules = rules(ctx.getBroadcastState(GateStateDescriptors.rules()));
        GateState s = null;
        boolean dirty = false;
        for (Delivery d : buffer.release(ctx.getCurrentKey(), ts)) {
            if (s == null) {
                s = device.value();
                if (s == null) {
                    s = new GateState();
                }
            }
            DeviceInfo dev = d.device;
            GateEngine.Outcome o = GateEngine.decide(rules, s, d.request, dev, d.request.ts);
            Decision decision =
                    o.pass()
                            ? Decision.pass(d.request, dev.uid, dev.deviceId, dev.vendor)
                            : Decision.drop(d.request, dev.uid, dev.deviceId, o.reason);
            count(decision, dev.vendor);
            out.collect(decision);
            if (o.pass()) {
                dirty = true;
                ctx.output(DispatchTags.SENDS, send(d.request, dev, o.level));
            }
        }
        if (dirty) {
            device.update(s);
        }
    }

    private Rules rules(ReadOnlyBroadcastState<String, String> state) throws Exception {
        String text = state.get(GateStateDescriptors.CURRENT_RULES);
        if (text != null && !text.equals(currentText)) {
            current = RulesParser.parse(text);
            currentText = text;
        }
        return current;
    }

    static SendRecord send(PushRequest p, DeviceInfo device, int level) {
        SendRecord s = new SendRecord();
        s.msgId = p.msgId;
        s.msgType = p.msgType;
        s.level = level;
        s.uid = device.uid;
        s.deviceId = device.deviceId;
        s.vendor = device.vendor;
        s.token = device.token;
        s.title = p.title;
        s.body = p.body;
        s.ts = p.ts;
        s.deadline = p.deadline;
        return s;
    }

    private void count(Decision d, String vendor) {
        String reason = d.reason == null ? "pass" : d.reason;
        Map<String, Counter> byVendor =
                counters.computeIfAbsent(reason, r -> new HashMap<>())
                        .computeIfAbsent(d.msgType, t -> new HashMap<>());
        Counter c = byVendor.get(vendor);
        if (c == null) {
            c =
                    metrics.addGroup("reason", reason)
                            .addGroup("msgType", d.msgType)
                            .addGroup("vendor", vendor)
                            .counter("decisions");
            byVendor.put(vendor, c);
        }
        c.inc();
    }
}
