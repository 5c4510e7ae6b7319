package io.pushline.longconn;

import io.pushline.schema.SendRecord;
import io.pushline.schema.longconn.AppVersion;
import io.pushline.schema.longconn.DeviceLink;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.LongconnState;
import io.pushline.schema.longconn.TrackedSend;
import io.pushline.udf.EventTimeOrderedOperator;
import io.pushline.udf.EventTimeQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * The long-connection ack tracker, keyed by deviceId (jobs/longconn/README.md). Sends, acks and
 * presence are handled in event-time order; each tracked message has an event-time timer at its
 * pending retry's due time, and a retry due at t runs after every input of time up to t and before
 * any later one, so the streaming job and a replay take the same decisions. Retries of one device
 * due at the same time run in msgId order, because a later-phase retry changes the device's learned
 * delay that the next one may read.
 */
public class AckTracker extends EventTimeOrderedOperator<LongconnEvent, LongconnAction>
        implements Triggerable<String, VoidNamespace> {
    private static final long serialVersionUID = 1L;

    private final AckRules rules;
    private final Duration deviceTtl;
    private final Duration trackedTtl;

    private transient ValueState<DeviceLink> link;
    private transient MapState<String, TrackedSend> tracked;
    private transient InternalTimerService<VoidNamespace> timers;
    private transient Map<String, Counter> actions;
    private transient Counter duplicateSends;
    private transient Counter strayAcks;

    public AckTracker(AckRules rules, Duration deviceTtl, Duration trackedTtl) {
        this(rules, deviceTtl, trackedTtl, EventTimeQueue.DEFAULT_MAX_ON_HEAP);
    }

    public AckTracker(AckRules rules, Duration deviceTtl, Duration trackedTtl, int maxOnHeap) {
        super("longconn-buffer", LongconnEvent.class, maxOnHeap);
        this.rules = rules;
        this.deviceTtl = deviceTtl;
        this.trackedTtl = trackedTtl;
    }

    @Override
    public void open() throws Exception {
        super.open();
        link = getRuntimeContext().getState(LongconnState.device(deviceTtl));
        tracked = getRuntimeContext().getMapState(LongconnState.tracked(trackedTtl));
        timers =
                getInternalTimerService("longconn-retries", VoidNamespaceSerializer.INSTANCE, this);
        var metrics = getRuntimeContext().getMetricGroup().addGroup("longconn");
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
        if (ts != Long.MIN_VALUE && ts - 1 > timers.currentWatermark()) {
            timeServiceManager.advanceWatermark(new Watermark(ts - 1));
        }
    }

    @Override
    protected void handle(LongconnEvent e, long ts) throws Exception {
        switch (e.type) {
            case LongconnEvent.PRESENCE -> presence(e);
            case LongconnEvent.SENT -> sent(e, ts);
            case LongconnEvent.ACK -> ack(e, ts);
            default -> throw new IllegalStateException("parser let through type " + e.type);
        }
    }

    private void presence(LongconnEvent e) throws Exception {
        DeviceLink d = device();
        d.online = e.online;
        if (e.appVersion != null) {
            d.appVersion = e.appVersion;
        }
        link.update(d);
    }

    private void sent(LongconnEvent e, long ts) throws Exception {
        if (tracked.contains(e.msgId)) {
            duplicateSends.inc();
            return;
        }
        DeviceLink d = link.value();
        if (d != null
                && d.appVersion != null
                && AppVersion.compare(d.appVersion, rules.minAckVersion) < 0) {
            emitFor(
                    e,
                    LongconnAction.of(ts, e.msgId, e.deviceId, LongconnAction.UNTRACKED, 0, null),
                    e.send);
            return;
        }
        TrackedSend t = new TrackedSend();
        t.sentTs = ts;
        t.lastAttempt = ts;
        t.delay = delayOf(1, d, 0);
        t.send = e.send;
        tracked.put(e.msgId, t);
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, t.due());
    }

    private void ack(LongconnEvent e, long ts) throws Exception {
        TrackedSend t = tracked.get(e.msgId);
        if (t == null) {
            strayAcks.inc();
            return;
        }
        emitFor(
                e,
                LongconnAction.of(
                        ts, e.msgId, e.deviceId, LongconnAction.ACKED, t.retries, ts - t.sentTs),
                t.send);
        DeviceLink d = link.value();
        if (d != null && d.learnedDelay != null) {
            d.learnedDelay = null;
            link.update(d);
        }
        tracked.remove(e.msgId);
        long due = t.due();
        for (TrackedSend other : tracked.values()) {
            if (other.due() == due) {
                return;
            }
        }
        timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, due);
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
        long t = timer.getTimestamp();
        List<Map.Entry<String, TrackedSend>> due = new ArrayList<>();
        for (Map.Entry<String, TrackedSend> en : tracked.entries()) {
            if (en.getValue().due() <= t) {
                due.add(Map.entry(en.getKey(), en.getValue()));
            }
        }
        due.sort(Map.Entry.comparingByKey());
        for (Map.Entry<String, TrackedSend> en : due) {
            retry(timer.getKey(), en.getKey(), en.getValue(), t);
        }
    }

    /** Retry k of {@code msgId}, due at {@code t}: give up, fall back or resend. */
    private void retry(String deviceId, String msgId, TrackedSend s, long t) throws Exception {
        int k = s.retries + 1;
        DeviceLink d = link.value();
        if (s.delay > rules.maxDelayMs) {
            tracked.remove(msgId);
            emitTimer(
                    LongconnAction.of(t, msgId, deviceId, LongconnAction.GIVE_UP, k - 1, s.delay),
                    null);
            return;
        }
        if (d != null && d.offline()) {
            tracked.remove(msgId);
            emitTimer(
                    LongconnAction.of(t, msgId, deviceId, LongconnAction.FALLBACK, k, s.delay),
                    s.send);
            return;
        }
        if (k > rules.probeTries) {
            d = d == null ? new DeviceLink() : d;
            d.learnedDelay = s.delay;
            link.update(d);
        }
        emitTimer(LongconnAction.of(t, msgId, deviceId, LongconnAction.RETRY, k, s.delay), s.send);
        s.retries = k;
        s.lastAttempt = t;
        s.delay = delayOf(k + 1, d, s.delay);
        tracked.put(msgId, s);
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, s.due());
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

    private DeviceLink device() throws Exception {
        DeviceLink d = link.value();
        return d == null ? new DeviceLink() : d;
    }

    private void emitFor(LongconnEvent e, LongconnAction a, SendRecord send) {
        a.seq = e.seq;
        a.send = send;
        actions.get(a.action).inc();
        emit(a, a.ts);
    }

    private void emitTimer(LongconnAction a, SendRecord send) {
        a.fromTimer = true;
        a.send = send;
        actions.get(a.action).inc();
        emit(a, a.ts);
    }

    @Override
    public void onProcessingTime(InternalTimer<String, VoidNamespace> timer) {}
}
