package io.pushline.dispatch.pacing;

import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.SendRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingControl;
import io.pushline.schema.pacing.PacingStateDescriptors;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.pacing.QueuedSend;
import io.pushline.schema.pacing.VendorPacing;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;

/**
 * Paces sends per vendor, keyed by vendor so that one subtask owns each vendor's rate: the rate
 * holds over all parallel subtasks together, without guessing each one's part. Input 1 is the
 * gate's sends, input 2 control events (new rates from the rules topic, throttling and recovery
 * reports), both keyed by vendor. What cannot go now waits in RocksDB (the queue map), never on the
 * heap; the vendor's small bookkeeping ({@link VendorPacing}) is cached on the heap and written to
 * keyed state in each snapshot.
 *
 * <p>Every {@code tickMs} while a backlog exists, a processing-time timer refills the bucket and
 * sends what the tokens allow, level by level as {@link VendorPacer} chooses. A send whose deadline
 * has passed is dropped as {@code expired} to {@link DispatchTags#DECISIONS} without using a token.
 * At the end of a bounded input the backlog drains at the same pace.
 */
public class Pacer extends AbstractStreamOperator<SendRecord>
        implements TwoInputStreamOperator<SendRecord, PacingControl, SendRecord>,
                Triggerable<String, VoidNamespace>,
                BoundedMultiInput {
    private static final long serialVersionUID = 1L;
    static final long STATUS_INTERVAL_MS = 200;

    private final PacingConfig config;
    private final long tickMs;
    private final double throttleFactor;
    private final double recoveryPerSecond;

    private transient ValueState<VendorPacing> vendorState;
    private transient MapState<Long, QueuedSend> queue;
    private transient InternalTimerService<VoidNamespace> timers;
    private transient Map<String, VendorPacing> vendors;
    private transient Map<String, Long> nextTick;
    private transient Map<String, VendorMetrics> metrics;

    /** The sends' watermark: how far event time has come through the stages before this one. */
    private transient long watermark;

    /**
     * @param config rates, weights and realtime level until a rules document changes them
     * @param tickMs how often a backlog is served (the bucket holds two ticks' worth)
     * @param throttleFactor what a throttling report multiplies the rate by
     * @param recoveryPerSecond fraction of the configured rate regained per second after a cut
     */
    public Pacer(
            PacingConfig config, long tickMs, double throttleFactor, double recoveryPerSecond) {
        if (tickMs < 1) {
            throw new IllegalArgumentException("pacing tick must be at least 1 ms: " + tickMs);
        }
        if (!(throttleFactor > 0 && throttleFactor < 1)) {
            throw new IllegalArgumentException(
                    "throttle factor must be in (0, 1): " + throttleFactor);
        }
        this.config = config;
        this.tickMs = tickMs;
        this.throttleFactor = throttleFactor;
        this.recoveryPerSecond = recoveryPerSecond;
    }

    @Override
    public void open() throws Exception {
        super.open();
        vendorState = getPartitionedState(PacingStateDescriptors.vendor());
        queue = getPartitionedState(PacingStateDescriptors.queue());
        timers = getInternalTimerService("pacing-ticks", VoidNamespaceSerializer.INSTANCE, this);
        vendors = new HashMap<>();
        nextTick = new HashMap<>();
        metrics = new HashMap<>();
        List<String> restored;
        try (Stream<Object> keys =
                getKeyedStateBackend()
                        .getKeys(PacingStateDescriptors.VENDOR, VoidNamespace.INSTANCE)) {
            restored = keys.map(String::valueOf).collect(Collectors.toList());
        }
        for (String vendor : restored) {
            setCurrentKey(vendor);
            vendor();
        }
        scheduleStatus();
    }

    /**
     * Every {@link #STATUS_INTERVAL_MS}, each vendor this subtask owns: its backlog, rate and the
     * event time it has reached, to push.pacing.
     */
    private void scheduleStatus() {
        ProcessingTimeService time = getProcessingTimeService();
        time.registerTimer(
                time.getCurrentProcessingTime() + STATUS_INTERVAL_MS,
                t -> {
                    for (Map.Entry<String, VendorPacing> e : vendors.entrySet()) {
                        VendorPacing s = e.getValue();
                        PacingStatus status =
                                PacingStatus.of(e.getKey(), s.backlog(), s.rate, s.maxRate, t);
                        status.watermark = Math.max(0, watermark);
                        output.collect(DispatchTags.PACING_STATUS, new StreamRecord<>(status));
                    }
                    scheduleStatus();
                });
    }

    @Override
    public void processElement1(StreamRecord<SendRecord> element) throws Exception {
        SendRecord send = element.getValue();
        long now = now();
        VendorPacing s = vendor();
        int level = VendorPacer.level(send.level);
        if (expired(send, now)) {
            expire(s, send);
            return;
        }
        // With a backlog, only ticks refill: a refill here would cap what the time since the
        // last tick earned at two ticks' worth before a late tick could send it.
        if (s.backlog() == 0) {
            VendorPacer.refill(s, now, tickMs, recoveryPerSecond);
            if (VendorPacer.mayAct(s)) {
                VendorPacer.use(s);
                send(s, send, level, 0);
                return;
            }
        }
        long seq = VendorPacer.enqueue(s, level);
        queue.put(VendorPacing.queueKey(level, seq), new QueuedSend(send, now));
        metrics(s).level(level);
        schedule(now);
    }

    @Override
    public void processElement2(StreamRecord<PacingControl> element) throws Exception {
        PacingControl c = element.getValue();
        VendorPacing s = vendor();
        long now = now();
        VendorPacer.refill(s, now, tickMs, recoveryPerSecond);
        VendorMetrics m = metrics(s);
        switch (c.kind) {
            case PacingControl.CONFIG:
                VendorPacer.configure(s, c.maxRate, c.weights, c.realtimeLevel, c.fromRules);
                LOG.info("Pacing {} at {}/s now (rules: {})", key(), c.maxRate, c.fromRules);
                break;
            case PacingControl.THROTTLED:
                if (VendorPacer.throttle(s, now, throttleFactor)) {
                    m.cuts.inc();
                    LOG.warn("{} throttles (code {}): rate cut to {}/s", key(), c.code, s.rate);
                }
                // after the cut: the pause is what the new rate earns in the vendor's Retry-After
                VendorPacer.pause(s, now, c.retryAfterMs);
                m.throttleReports.inc();
                break;
            case PacingControl.RECOVERED:
                VendorPacer.recovered(s, now);
                break;
            default:
                LOG.warn("Ignoring a pacing control of unknown kind {}", c.kind);
        }
        if (s.backlog() > 0) {
            schedule(now);
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
        String vendor = timer.getKey();
        long now = now();
        Long scheduled = nextTick.get(vendor);
        if (scheduled != null && scheduled <= now) {
            nextTick.remove(vendor);
        }
        VendorPacing s = vendor();
        VendorPacer.refill(s, now, tickMs, recoveryPerSecond);
        int level;
        while (VendorPacer.mayAct(s) && (level = VendorPacer.next(s)) >= 0) {
            long key = VendorPacing.queueKey(level, VendorPacer.take(s, level));
            QueuedSend q = queue.get(key);
            queue.remove(key);
            if (q == null) {
                LOG.error("Pacing queue of {} has no entry {}: skipped", vendor, key);
                continue;
            }
            if (expired(q.send, now)) {
                expire(s, q.send);
                continue;
            }
            VendorPacer.use(s);
            send(s, q.send, level, now - q.enqueuedAt);
        }
        if (s.backlog() > 0) {
            schedule(now);
        }
    }

    @Override
    public void processWatermark1(Watermark mark) throws Exception {
        watermark = Math.max(watermark, mark.getTimestamp());
        super.processWatermark1(mark);
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> timer) {}

    /** Writes the heap copies to keyed state; the keyed backend is snapshotted right after. */
    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        for (Map.Entry<String, VendorPacing> e : vendors.entrySet()) {
            setCurrentKey(e.getKey());
            vendorState.update(e.getValue());
        }
    }

    /**
     * At the end of the sends the backlog still leaves at the vendor's pace, then the task ends.
     */
    @Override
    public void endInput(int inputId) throws Exception {
        if (inputId != 1 || !hasBacklog()) {
            return;
        }
        LOG.info("End of input: draining the pacing backlog ({} sends)", backlog());
        MailboxExecutor mailbox =
                getContainingTask()
                        .getMailboxExecutorFactory()
                        .createExecutor(getOperatorConfig().getChainIndex());
        while (hasBacklog()) {
            mailbox.yield();
        }
    }

    private boolean hasBacklog() {
        return backlog() > 0;
    }

    private long backlog() {
        long n = 0;
        for (VendorPacing s : vendors.values()) {
            n += s.backlog();
        }
        return n;
    }

    private static boolean expired(SendRecord send, long now) {
        return send.deadline != null && send.deadline < now;
    }

    private void send(VendorPacing s, SendRecord send, int level, long waitedMs) {
        VendorMetrics m = metrics(s);
        m.sent.inc();
        m.level(level).sent.inc();
        m.level(level).waitMs.update(waitedMs);
        output.collect(new StreamRecord<>(send, send.ts));
    }

    private void expire(VendorPacing s, SendRecord send) {
        metrics(s).expired.inc();
        Decision d = new Decision();
        d.msgId = send.msgId;
        d.uid = send.uid;
        d.deviceId = send.deviceId;
        d.decision = Decision.DROP;
        d.reason = DropReason.EXPIRED.wireName();
        d.code = DropReason.EXPIRED.code();
        d.msgType = send.msgType;
        d.ts = send.ts;
        output.collect(DispatchTags.DECISIONS, new StreamRecord<>(d, send.ts));
    }

    private void schedule(long now) {
        String vendor = key();
        Long pending = nextTick.get(vendor);
        if (pending != null && pending > now) {
            return;
        }
        long at = now + tickMs;
        timers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, at);
        nextTick.put(vendor, at);
    }

    /** The current key's pacer, from the heap, else keyed state, else the configuration. */
    private VendorPacing vendor() throws Exception {
        String vendor = key();
        VendorPacing s = vendors.get(vendor);
        if (s == null) {
            s = vendorState.value();
            if (s == null) {
                s =
                        VendorPacer.fresh(
                                config.rate(vendor),
                                config.weights(),
                                config.realtimeLevel(),
                                now(),
                                tickMs);
            } else if (!s.fromRules) {
                // the job's options may have changed since the checkpoint: they apply again
                VendorPacer.configure(
                        s, config.rate(vendor), config.weights(), config.realtimeLevel(), false);
            }
            vendors.put(vendor, s);
            metrics(s);
        }
        return s;
    }

    private String key() {
        return (String) getCurrentKey();
    }

    private long now() {
        return getProcessingTimeService().getCurrentProcessingTime();
    }

    private VendorMetrics metrics(VendorPacing s) {
        return metrics.computeIfAbsent(
                key(), v -> new VendorMetrics(getMetricGroup().addGroup("vendor", v), s));
    }

    /** One vendor's metrics; gauges read the heap copy of its pacer. */
    private static final class VendorMetrics {
        final MetricGroup group;
        final VendorPacing s;
        final Counter sent;
        final Counter expired;
        final Counter throttleReports;
        final Counter cuts;
        final LevelMetrics[] levels = new LevelMetrics[VendorPacing.LEVELS];

        VendorMetrics(MetricGroup group, VendorPacing s) {
            this.group = group;
            this.s = s;
            sent = group.counter("sent");
            expired = group.counter("expired");
            throttleReports = group.counter("throttleReports");
            cuts = group.counter("rateCuts");
            group.gauge("rate", () -> s.rate);
            group.gauge("maxRate", () -> s.maxRate);
            group.gauge("backlog", s::backlog);
        }

        LevelMetrics level(int level) {
            if (levels[level] == null) {
                MetricGroup g = group.addGroup("level", String.valueOf(level));
                levels[level] = new LevelMetrics(g, s, level);
            }
            return levels[level];
        }
    }

    private static final class LevelMetrics {
        final Counter sent;
        final Histogram waitMs;

        LevelMetrics(MetricGroup g, VendorPacing s, int level) {
            sent = g.counter("sent");
            waitMs = g.histogram("waitMs", new DescriptiveStatisticsHistogram(1_000));
            g.gauge("backlog", () -> s.backlog(level));
        }
    }
}
