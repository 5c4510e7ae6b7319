package io.pushline.dispatch.gate;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.gate.GateStateDescriptors;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.udf.EventTimeQueue;
import io.pushline.udf.LegacyTimers;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-device gate (input 1 keyed by deviceId; input 2 the rules, broadcast): holds each push
 * until the watermark passes its time, then decides the pushes in (ts, seq) order by the rules of
 * docs/dispatch-gate.md ({@link GateEngine}) and emits the decision; a PASS also becomes a send
 * ({@link DispatchTags#SENDS}). New rules apply from the next decision on.
 *
 * <p>Waiting pushes sit in one queue for the whole subtask, drained when the watermark moves: no
 * timer per push, and each push costs one read of its device's state (and a write on a PASS). Past
 * {@code maxOnHeap} waiting records (a stalled watermark, a backlog) further records go to RocksDB
 * and only their place in the order stays on the heap. A push that arrives behind the watermark is
 * decided at the next one.
 */
public class GateOperator extends AbstractStreamOperator<Decision>
        implements TwoInputStreamOperator<DevicePush, String, Decision> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(GateOperator.class);

    /** Records a subtask keeps on the heap before spilling to RocksDB. */
    public static final int DEFAULT_MAX_ON_HEAP = EventTimeQueue.DEFAULT_MAX_ON_HEAP;

    /** Records decided per batch of {@link #warm}ed reads. */
    private static final int CHUNK = 32;

    private final String initialRules;
    private final Duration stateTtl;
    private final int maxOnHeap;

    private transient ValueState<GateState> device;
    private transient EventTimeQueue.Checkpointed<DevicePush> checkpointed;
    private transient BroadcastState<String, String> rulesState;
    private transient EventTimeQueue<DevicePush> queue;
    private transient Rules current;

    /** The label of msgTypes the rules do not list and of unknown vendors. */
    static final String OTHER = "other";

    private transient MetricGroup metrics;
    private transient Counter failures;
    private transient StreamRecord<Decision> decisionOut;
    private transient Names names;
    private transient EventTimeQueue.Waiting<DevicePush>[] chunk;

    /** Keeps {@link #warm}'s reads from being optimized away. */
    private transient long warmed;

    /** Decision counters by reason, msgType and vendor: nested, so counting allocates nothing. */
    private transient Map<String, Map<String, Map<String, Counter>>> counters;

    /**
     * @param initialRules the rules document in force until the broadcast input brings another
     * @param stateTtl how long an untouched device's gate memory is kept; at least every rule's
     *     look-back ({@link Rules#lookBack()})
     */
    public GateOperator(String initialRules, Duration stateTtl) {
        this(initialRules, stateTtl, DEFAULT_MAX_ON_HEAP);
    }

    public GateOperator(String initialRules, Duration stateTtl, int maxOnHeap) {
        this.initialRules = initialRules;
        this.stateTtl = stateTtl;
        this.maxOnHeap = maxOnHeap;
        RulesUpdates.check(RulesParser.parse(initialRules), stateTtl);
    }

    /** A push's place in time: the order the gate decides in. */
    private static final class ByTime implements EventTimeQueue.Order<DevicePush> {
        @Override
        public String key(DevicePush d) {
            return d.device.deviceId;
        }

        @Override
        public long ts(DevicePush d) {
            return d.request.ts;
        }

        @Override
        public long seq(DevicePush d) {
            return d.request.seq;
        }
    }

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        device = getKeyedStateStore().getState(GateStateDescriptors.device(stateTtl));
        queue =
                new EventTimeQueue<>(
                        new ByTime(),
                        this,
                        getKeyedStateStore().getMapState(GateStateDescriptors.spill()),
                        maxOnHeap);
        checkpointed =
                new EventTimeQueue.Checkpointed<>(
                        ctx.getOperatorStateStore(),
                        GateStateDescriptors.waitingOnHeapChunks(),
                        GateStateDescriptors.waitingSpilledChunks(),
                        GateStateDescriptors.waitingOnHeap(),
                        GateStateDescriptors.waitingSpilled());
        rulesState = ctx.getOperatorStateStore().getBroadcastState(GateStateDescriptors.rules());
        names = new Names();
        String restored = rulesState.get(GateStateDescriptors.CURRENT_RULES);
        current = RulesParser.parse(restored != null ? restored : initialRules);
        preferRulesNames();
        if (!ctx.isRestored()) {
            return;
        }
        Predicate<String> owned = EventTimeQueue.ownedBy(getRuntimeContext().getTaskInfo());
        queue.restore(checkpointed, owned);
        // the first gate kept a buffer and timers per device
        queue.restoreLegacy(
                ctx.getOperatorStateStore(),
                getKeyedStateStore(),
                "gate-buffer",
                DevicePush.class,
                owned);
    }

    @Override
    public void open() throws Exception {
        super.open();
        LegacyTimers.claim((name, ns, target) -> getInternalTimerService(name, ns, target));
        metrics = getRuntimeContext().getMetricGroup().addGroup("gate");
        failures = metrics.counter("recordFailures");
        counters = new HashMap<>();
        decisionOut = new StreamRecord<>(null);
        chunk = new EventTimeQueue.Waiting[CHUNK];
    }

    @Override
    public void processElement1(StreamRecord<DevicePush> element) throws Exception {
        enqueue(element.getValue());
    }

    /**
     * A push only joins the queue on arrival, so Flink need not set its key then (hashing and
     * serializing the deviceId once more per push); the queue sets it for a spill and a decision.
     */
    @Override
    public boolean hasKeyContext1() {
        return false;
    }

    /** Queues {@code d}. */
    private void enqueue(DevicePush d) throws Exception {
        // Records wait long enough to leave the CPU's caches: share one copy of the few distinct
        // msgType, vendor and zone names now, whose lookups then stay cheap.
        PushRequest p = d.request;
        p.msgType = names.canonical(p.msgType);
        d.device.vendor = names.canonical(d.device.vendor);
        d.device.tz = names.canonical(d.device.tz);
        // The String keeps its hash: the key group is then found without reading it again.
        d.device.deviceId.hashCode();
        queue.add(d);
    }

    @Override
    public void processElement2(StreamRecord<String> element) throws Exception {
        String text = element.getValue();
        // Checked by RulesUpdates before it was broadcast.
        current = RulesParser.parse(text);
        preferRulesNames();
        rulesState.put(GateStateDescriptors.CURRENT_RULES, text);
        LOG.info("gate rules replaced ({} characters)", text.length());
    }

    private void preferRulesNames() {
        names.prefer(current.msgTypes.keySet());
        names.prefer(current.whitelistMsgTypes);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        int n;
        do {
            n = queue.pollUpTo(mark.getTimestamp(), chunk);
            warm(n);
            for (int i = 0; i < n; i++) {
                EventTimeQueue.Waiting<DevicePush> next = chunk[i];
                chunk[i] = null;
                DevicePush d = queue.take(next);
                try {
                    decide(d);
                } catch (Throwable t) {
                    failed(d, t);
                }
            }
        } while (n == CHUNK);
        super.processWatermark(mark);
    }

    /**
     * Reads what deciding the first {@code n} records of {@link #chunk} will read, in one loop:
     * records waited long enough to leave the CPU's caches, and the reads of independent records
     * overlap here, where one by one in {@link #decide} each would stall the thread.
     */
    private void warm(int n) {
        long touched = 0;
        for (int i = 0; i < n; i++) {
            EventTimeQueue.Waiting<DevicePush> w = chunk[i];
            touched += w.key.length();
            DevicePush d = w.onHeap();
            if (d != null && d.request.msgId != null) {
                touched += d.request.ts + (d.device.pushEnabled ? 1 : 0) + d.request.msgId.length();
            }
        }
        warmed = touched;
    }

    /** Deciding {@code d} threw: a dead letter unless that is not the record's fault. */
    private void failed(DevicePush d, Throwable t) {
        failures.inc();
        DeadLetter dead =
                RecordFailure.deadLetter(
                        "gate",
                        "msgId " + d.request.msgId + ", deviceId " + d.device.deviceId,
                        () -> Json.write(d.request),
                        t,
                        failures.getCount());
        output.collect(DispatchTags.DEAD_LETTERS, new StreamRecord<>(dead, d.request.ts));
    }

    private void decide(DevicePush d) throws Exception {
        GateState s = device.value();
        if (s == null) {
            s = new GateState();
        }
        DeviceInfo dev = d.device;
        PushRequest p = d.request;
        GateEngine.Outcome o =
                GateEngine.decide(
                        current,
                        s,
                        p,
                        dev,
                        p.ts,
                        GateEngine.hash(p.msgId),
                        GateEngine.copyHash(p.title, p.body));
        Decision decision =
                o.pass()
                        ? Decision.pass(p, dev.uid, dev.deviceId, dev.vendor)
                        : Decision.drop(p, dev.uid, dev.deviceId, o.reason());
        count(decision, dev.vendor);
        output.collect(decisionOut.replace(decision, p.ts));
        if (o.pass()) {
            device.update(s);
            output.collect(DispatchTags.SENDS, new StreamRecord<>(send(p, dev, o.level()), p.ts));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        queue.snapshot(checkpointed);
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
        if (Vendor.LONGCONN.wireName().equals(device.vendor)) {
            s.fallback = device.fallback;
        }
        return s;
    }

    static String msgTypeLabel(String msgType, Rules rules) {
        return msgType != null && rules.msgTypes.containsKey(msgType) ? msgType : OTHER;
    }

    static String vendorLabel(String vendor) {
        return vendor == null || Vendor.fromWire(vendor) != null ? vendor : OTHER;
    }

    /**
     * Label values come from bounded sets, so that free text cannot grow the metric series without
     * end: a msgType the rules do not list counts under {@code other}, as does an unknown vendor.
     */
    private void count(Decision d, String vendorName) {
        String reason = d.reason == null ? "pass" : d.reason;
        String msgType = msgTypeLabel(d.msgType, current);
        String vendor = vendorLabel(vendorName);
        Map<String, Counter> byVendor =
                counters.computeIfAbsent(reason, r -> new HashMap<>())
                        .computeIfAbsent(msgType, t -> new HashMap<>());
        Counter c = byVendor.get(vendor);
        if (c == null) {
            c =
                    metrics.addGroup("reason", reason)
                            .addGroup("msgType", msgType)
                            .addGroup("vendor", vendor)
                            .counter("decisions");
            byVendor.put(vendor, c);
        }
        c.inc();
    }
}
