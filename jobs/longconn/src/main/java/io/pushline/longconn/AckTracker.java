package io.pushline.longconn;

import io.pushline.schema.longconn.AppVersion;
import io.pushline.schema.longconn.DeviceLink;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.LongconnState;
import io.pushline.schema.longconn.SendBytes;
import io.pushline.schema.longconn.TrackedSend;
import io.pushline.udf.EventTimeOrderedOperator;
import io.pushline.udf.EventTimeQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * The long-connection ack tracker, keyed by deviceId (jobs/longconn/README.md). Sends, acks and
 * presence are handled in event-time order; each tracked message has an event-time timer at its
 * pending retry's due time by then ({@link DeviceLinks}: most messages are acked before their
 * device's state leaves the heap and never need one), and a retry due at t runs after every input
 * of time up to t and before any later one, so the streaming job and a replay take the same
 * decisions. Retries of one device due at the same time run in msgId order, because a later-phase
 * retry changes the device's learned delay that the next one may read.
 */
public class AckTracker extends EventTimeOrderedOperator<LongconnEvent, LongconnAction>
        implements Triggerable<String, VoidNamespace> {
    private static final long serialVersionUID = 1L;
    private static final int UNTIMED_CHUNK = 1024;

    private final AckRules rules;
    private final Duration stateTtl;
    private final int maxCachedDevices;

    private transient DeviceLinks devices;
    private transient ListState<List<String>> untimed;
    private transient boolean restored;
    private transient InternalTimerService<VoidNamespace> timers;
    private transient Map<String, Counter> actions;
    private transient Counter duplicateSends;
    private transient Counter strayAcks;

    public AckTracker(AckRules rules, Duration stateTtl) {
        this(rules, stateTtl, EventTimeQueue.DEFAULT_MAX_ON_HEAP, DeviceLinks.MAX_DEVICES);
    }

    /** With smaller buffers, so that tests reach their limits. */
    AckTracker(AckRules rules, Duration stateTtl, int maxOnHeap, int maxCachedDevices) {
        super("longconn-buffer", LongconnEvent.class, maxOnHeap);
        this.rules = rules;
        this.stateTtl = stateTtl;
        this.maxCachedDevices = maxCachedDevices;
    }

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        untimed = ctx.getOperatorStateStore().getUnionListState(LongconnState.untimedDevices());
        restored = ctx.isRestored();
    }

    @Override
    public void open() throws Exception {
        super.open();
        ValueState<DeviceLink> link = getRuntimeContext().getState(LongconnState.device(stateTtl));
        timers =
                getInternalTimerService("longconn-retries", VoidNamespaceSerializer.INSTANCE, this);
        devices =
                new DeviceLinks(
                        link,
                        this,
                        timers,
                        maxCachedDevices,
                        Math.min(DeviceLinks.HOLD_MS, rules.probeDelayMs));
        if (restored) {
            Predicate<String> owned = EventTimeQueue.ownedBy(getRuntimeContext().getTaskInfo());
            for (List<String> chunk : untimed.get()) {
                for (String deviceId : chunk) {
                    if (owned.test(deviceId)) {
                        devices.restoreTimers(deviceId);
                    }
                }
            }
        }
        var metrics = getRuntimeContext().getMetricGroup().addGroup("longconn");
        metrics.gauge("devicesOnHeap", devices::size);
        actions = new java.util.HashMap<>();
        for (String a :
                List.of(
                        LongconnAction.RETRY,
                        LongconnAction.FALLBACK,
                        LongconnAction.GIVE_UP,
                        LongconnAction.ACKED,
                        LongconnAction.UNTRACKED)) {
            actions.put(a, metrics.addGroup("action", a).counter("actions"));
        }
        duplicateSends = metrics.counter("sendsAlreadyTracked");
        strayAcks = metrics.counter("acksForUntrackedMessages");
    }

    @Override
    protected String keyOf(LongconnEvent e) {
        return e.deviceId;
    }

    @Override
    protected long tsOf(LongconnEvent e) {
        return e.ts;
    }

    @Override
    protected long seqOf(LongconnEvent e) {
        return e.seq;
    }

    @Override
    protected String positionOf(LongconnEvent e) {
        return e.msgId == null
                ? "deviceId " + e.deviceId
                : "msgId " + e.msgId + ", deviceId " + e.deviceId;
    }

    /** Retries due before {@code ts} run before the record of time {@code ts}. */
    @Override
    protected void beforeHandling(long ts) throws Exception {
        if (devices.full()) {
            devices.flushOldest();
        }
        if (ts != Long.MIN_VALUE && ts - 1 > timers.currentWatermark()) {
            devices.flushUpTo(ts - 1);
            timeServiceManager.advanceWatermark(new Watermark(ts - 1));
        }
    }

    /** The devices held on the heap whose retries may come due by {@code watermark} get timers. */
    @Override
    protected void beforeWatermark(long watermark) throws Exception {
        devices.flushUpTo(watermark);
    }

    @Override
    protected void handle(LongconnEvent e, long ts) throws Exception {
        DeviceLink d = devices.get(e.deviceId, ts);
        switch (e.type) {
            case LongconnEvent.PRESENCE -> {
                d.online = e.online;
                if (e.appVersion != null) {
                    d.appVersion = e.appVersion;
                }
            }
            case LongconnEvent.SENT -> {
                if (!sent(d, e, ts)) {
                    return;
                }
            }
            case LongconnEvent.ACK -> {
                if (!ack(d, e, ts)) {
                    return;
                }
            }
            default -> throw new IllegalStateException("parser let through type " + e.type);
        }
        devices.put(e.deviceId, d);
    }

    /** Whether the device's state changed. */
    private boolean sent(DeviceLink d, LongconnEvent e, long ts) {
        if (d.find(e.msgId) != null) {
            duplicateSends.inc();
            return false;
        }
        if (d.appVersion != null && AppVersion.compare(d.appVersion, rules.minAckVersion) < 0) {
            emitFor(
                    e,
                    LongconnAction.of(ts, e.msgId, e.deviceId, LongconnAction.UNTRACKED, 0, null),
                    e.send);
            return false;
        }
        TrackedSend t = new TrackedSend();
        t.msgId = e.msgId;
        t.sentTs = ts;
        t.lastAttempt = ts;
        t.delay = delayOf(1, d, 0);
        t.send = e.send;
        d.add(t);
        return true;
    }

    /** Whether the device's state changed. */
    private boolean ack(DeviceLink d, LongconnEvent e, long ts) {
        TrackedSend t = d.find(e.msgId);
        if (t == null) {
            strayAcks.inc();
            return false;
        }
        emitFor(
                e,
                LongconnAction.of(
                        ts, e.msgId, e.deviceId, LongconnAction.ACKED, t.retries, ts - t.sentTs),
                t.send);
        d.learnedDelay = null;
        d.remove(e.msgId);
        return true;
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        List<String> ids = devices.flush();
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += UNTIMED_CHUNK) {
            chunks.add(ids.subList(i, Math.min(ids.size(), i + UNTIMED_CHUNK)));
        }
        untimed.update(chunks);
        super.snapshotState(ctx);
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
        long t = timer.getTimestamp();
        DeviceLink d = devices.get(timer.getKey(), t);
        devices.fired(timer.getKey(), t);
        if (d.tracked == null) {
            return;
        }
        List<TrackedSend> due = new ArrayList<>();
        for (TrackedSend s : d.tracked) {
            if (s.due() <= t) {
                due.add(s);
            }
        }
        if (due.isEmpty()) {
            return;
        }
        due.sort(java.util.Comparator.comparing(s -> s.msgId));
        for (TrackedSend s : due) {
            retry(d, timer.getKey(), s, t);
        }
        devices.put(timer.getKey(), d);
        // the timers go on to the watermark without stopping where this device's window ends
        devices.registerTimers(timer.getKey());
    }

    /** Retry k of {@code s}, due at {@code t}: give up, fall back or resend. */
    private void retry(DeviceLink d, String deviceId, TrackedSend s, long t) {
        int k = s.retries + 1;
        if (s.delay > rules.maxDelayMs) {
            d.remove(s.msgId);
            emitTimer(
                    LongconnAction.of(t, s.msgId, deviceId, LongconnAction.GIVE_UP, k - 1, s.delay),
                    s.send);
            return;
        }
        if (d.offline()) {
            d.remove(s.msgId);
            emitTimer(
                    LongconnAction.of(t, s.msgId, deviceId, LongconnAction.FALLBACK, k, s.delay),
                    s.send);
            return;
        }
        if (k > rules.probeTries) {
            d.learnedDelay = s.delay;
        }
        emitTimer(
                LongconnAction.of(t, s.msgId, deviceId, LongconnAction.RETRY, k, s.delay), s.send);
        s.retries = k;
        s.lastAttempt = t;
        s.delay = delayOf(k + 1, d, s.delay);
    }

    /** The delay of retry {@code k}, with the device's learned delay as it stands now. */
    private long delayOf(int k, DeviceLink d, long previous) {
        if (k <= rules.probeTries) {
            return rules.probeDelayMs;
        }
        if (k == rules.probeTries + 1) {
            if (d != null && d.learnedDelay != null) {
                return d.learnedDelay;
            }
            long sum = rules.probeDelayMs + rules.stepMs;
            return sum < 0 ? Long.MAX_VALUE : sum;
        }
        return rules.plusStep(previous);
    }

    private void emitFor(LongconnEvent e, LongconnAction a, SendBytes send) {
        a.seq = e.seq;
        a.send = send;
        actions.get(a.action).inc();
        emit(a, a.ts);
    }

    private void emitTimer(LongconnAction a, SendBytes send) {
        a.fromTimer = true;
        a.send = send;
        actions.get(a.action).inc();
        emit(a, a.ts);
    }

    @Override
    public void onProcessingTime(InternalTimer<String, VoidNamespace> timer) {}
}
