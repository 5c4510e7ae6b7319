package io.pushline.reminders;

import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderMirror;
import io.pushline.schema.reminders.ReminderState;
import io.pushline.schema.reminders.ReminderTags;
import io.pushline.schema.reminders.ReminderTask;
import io.pushline.schema.reminders.ReminderTimes;
import io.pushline.udf.EventTimeOrderedOperator;
import io.pushline.udf.EventTimeQueue;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * The reminder tasks, keyed by taskId: creates, updates and cancels them, keeps their subscribers
 * and pulls as bitmaps of dense uid ids, and fires each open task at its {@code fireAt} (an
 * event-time timer, so a restore neither loses nor repeats a firing) as a {@link FiredTask}: who is
 * to be pushed and who pulled. Events are handled in event-time order ({@link
 * EventTimeOrderedOperator}); a task fires before the first of its events at or after its time.
 * Refused events go to {@link ReminderTags#REJECTED} with the reason.
 *
 * <p>A subscription changes a bitmap that may hold millions of ids. Reading and writing it in
 * RocksDB per event would copy megabytes per subscribe, so the bitmaps of the tasks touched since
 * the last watermark are kept on the heap and written back at the watermark and at a checkpoint.
 */
public class TaskOperator extends EventTimeOrderedOperator<ReminderEvent, FiredTask>
        implements Triggerable<String, VoidNamespace> {
    private static final long serialVersionUID = 1L;

    static final String PAST = "past";
    static final String UNKNOWN_TASK = "unknown_task";
    static final String FIRED = "fired";
    static final String CANCELLED = "cancelled";
    static final String FROZEN = "frozen";
    static final String CLOSED = "closed";
    static final String NOT_SUBSCRIBED = "not_subscribed";
    static final String NOT_FROZEN = "not_frozen";

    private transient ValueState<ReminderTask> tasks;
    private transient Counter backdated;
    private transient ValueState<byte[]> subscribersState;
    private transient ValueState<byte[]> pulledState;
    private transient InternalTimerService<VoidNamespace> timers;
    private transient Map<String, Bits> touched;
    private transient Map<String, Counter> rejections;
    private transient Counter fired;
    private transient Counter pushes;
    private transient Counter pulls;
    private transient Counter events;

    /** Subscriptions and their bitmaps' bytes in state, per open task, as of the last write. */
    private transient Map<String, long[]> sizes;

    public TaskOperator() {
        this(EventTimeQueue.DEFAULT_MAX_ON_HEAP);
    }

    public TaskOperator(int maxOnHeap) {
        super("reminder-buffer", ReminderEvent.class, maxOnHeap);
    }

    /** A task's subscribers and pulls while it is on the heap. */
    private static final class Bits {
        final UidSet subscribers;
        final UidSet pulled;
        boolean dirty;

        Bits(UidSet subscribers, UidSet pulled) {
            this.subscribers = subscribers;
            this.pulled = pulled;
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        tasks = getRuntimeContext().getState(ReminderState.task());
        subscribersState = getRuntimeContext().getState(ReminderState.subscribers());
        pulledState = getRuntimeContext().getState(ReminderState.pulled());
        timers = getInternalTimerService("reminder-fire", VoidNamespaceSerializer.INSTANCE, this);
        touched = new HashMap<>();
        rejections = new HashMap<>();
        fired = getMetricGroup().counter("tasksFired");
        pushes = getMetricGroup().counter("remindersToPush");
        pulls = getMetricGroup().counter("remindersPulled");
        events = getMetricGroup().counter("reminderEvents");
        backdated = getMetricGroup().counter("reminderEventsBehindWatermark");
        sizes = new HashMap<>();
        getMetricGroup().gauge("subscriptions", () -> total(0));
        getMetricGroup().gauge("subscriptionBytes", () -> total(1));
    }

    /**
     * An event stamped before the job's watermark when it arrives is taken as happening at the
     * watermark: the time the job handles it. An event's own {@code ts} is what its writer says;
     * trusting a backdated one let an {@code update} change a task that froze long ago (issue 47).
     * Events on time (all of a replayed trace, whose watermark follows the events) keep theirs.
     */
    @Override
    public void processElement(
            org.apache.flink.streaming.runtime.streamrecord.StreamRecord<ReminderEvent> element)
            throws Exception {
        ReminderEvent e = element.getValue();
        long watermark = timers.currentWatermark();
        if (e != null && e.ts < watermark) {
            e.ts = watermark;
            backdated.inc();
        }
        super.processElement(element);
    }

    @Override
    protected String keyOf(ReminderEvent e) {
        return e.taskId;
    }

    @Override
    protected long tsOf(ReminderEvent e) {
        return e.ts;
    }

    @Override
    protected long seqOf(ReminderEvent e) {
        return e.seq;
    }

    @Override
    protected String positionOf(ReminderEvent e) {
        return String.valueOf(e.seq); // the line of a trace, the offset of a record
    }

    private long total(int i) {
        long n = 0;
        for (long[] s : sizes.values()) {
            n += s[i];
        }
        return n;
    }

    @Override
    protected void handle(ReminderEvent e, long ts) throws Exception {
        events.inc();
        ReminderTask task = tasks.value();
        if (task != null && task.isOpen() && e.ts >= task.fireAt) {
            fire(task); // a task fires before every event at or after its time
        }
        if (e.isTask()) {
            switch (e.op) {
                case ReminderEvent.CREATE:
                    if (task == null) {
                        create(e);
                    } else {
                        update(task, e);
                    }
                    break;
                case ReminderEvent.UPDATE:
                    update(task, e);
                    break;
                default:
                    cancel(task, e);
            }
            return;
        }
        String refused = refusedFromList(task);
        if (refused != null) {
            reject(e, refused);
            return;
        }
        if (e.uidId < 0) {
            throw new IllegalStateException("uid without an id from the dictionary");
        }
        Bits bits = bits(e.taskId);
        switch (e.type) {
            case ReminderEvent.SUBSCRIBE:
                if (bits.subscribers.add(e.uidId)) {
                    bits.dirty = true;
                    mirror(
                            ReminderMirror.subscription(
                                    ReminderMirror.SUBSCRIBED, task, e.uid, e.ts));
                }
                break;
            case ReminderEvent.UNSUBSCRIBE:
                if (!bits.subscribers.remove(e.uidId)) {
                    reject(e, NOT_SUBSCRIBED);
                    return;
                }
                bits.pulled.remove(e.uidId);
                bits.dirty = true;
                mirror(ReminderMirror.subscription(ReminderMirror.UNSUBSCRIBED, task, e.uid, e.ts));
                break;
            default: // pull
                if (e.ts < ReminderTimes.freeze(task.fireAt, task.zone)) {
                    reject(e, NOT_FROZEN);
                } else if (!bits.subscribers.contains(e.uidId)) {
                    reject(e, NOT_SUBSCRIBED);
                } else {
                    bits.dirty |= bits.pulled.add(e.uidId);
                }
        }
    }

    /** Why a subscribe, unsubscribe or pull is refused before looking at the uid, or null. */
    private static String refusedFromList(ReminderTask task) {
        if (task == null) {
            return UNKNOWN_TASK;
        }
        if (ReminderTask.CANCELLED.equals(task.status)) {
            return CANCELLED;
        }
        if (ReminderTask.FIRED.equals(task.status)) {
            return CLOSED;
        }
        return null;
    }

    private void create(ReminderEvent e) throws Exception {
        if (e.fireAt <= e.ts) {
            reject(e, PAST);
            return;
        }
        ReminderTask t = new ReminderTask();
        t.taskId = e.taskId;
        t.fireAt = e.fireAt;
        t.zone = e.zone;
        t.title = e.title;
        t.body = e.body;
        t.status = ReminderTask.OPEN;
        t.createdAt = e.ts;
        tasks.update(t);
        mirror(ReminderMirror.task(t, e.ts));
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, t.fireAt);
    }

    private void update(ReminderTask t, ReminderEvent e) throws Exception {
        String refused = refusedChange(t, e);
        if (refused == null
                && (e.ts >= ReminderTimes.freeze(t.fireAt, t.zone)
                        || e.ts >= ReminderTimes.freeze(e.fireAt, e.zone))) {
            refused = FROZEN;
        }
        if (refused != null) {
            reject(e, refused);
            return;
        }
        if (t.fireAt != e.fireAt) {
            timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, t.fireAt);
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, e.fireAt);
        }
        t.fireAt = e.fireAt;
        t.zone = e.zone;
        t.title = e.title;
        t.body = e.body;
        tasks.update(t);
        mirror(ReminderMirror.task(t, e.ts));
    }

    private void cancel(ReminderTask t, ReminderEvent e) throws Exception {
        String refused = refusedChange(t, e);
        if (refused == null && e.ts >= ReminderTimes.freeze(t.fireAt, t.zone)) {
            refused = FROZEN;
        }
        if (refused != null) {
            reject(e, refused);
            return;
        }
        timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, t.fireAt);
        t.status = ReminderTask.CANCELLED;
        tasks.update(t);
        mirror(ReminderMirror.task(t, e.ts));
        forget(t.taskId);
    }

    /** Why an update or cancel is refused before looking at the freeze, or null. */
    private static String refusedChange(ReminderTask t, ReminderEvent e) {
        if (t == null) {
            return UNKNOWN_TASK;
        }
        if (ReminderTask.FIRED.equals(t.status)) {
            return FIRED;
        }
        if (ReminderTask.CANCELLED.equals(t.status)) {
            return CANCELLED;
        }
        return null;
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
        ReminderTask t = tasks.value();
        if (t != null && t.isOpen() && t.fireAt == timer.getTimestamp()) {
            fire(t);
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<String, VoidNamespace> timer) {}

    /** Fires {@code t} (the current key's task): once, whatever comes after. */
    private void fire(ReminderTask t) throws Exception {
        timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, t.fireAt);
        Bits bits = bits(t.taskId);
        UidSet push = bits.subscribers.minus(bits.pulled);
        UidSet pulled = bits.subscribers.and(bits.pulled);
        FiredTask f = new FiredTask();
        f.taskId = t.taskId;
        f.fireAt = t.fireAt;
        f.title = t.title;
        f.body = t.body;
        f.push = push.toBytes();
        f.pulled = pulled.toBytes();
        f.pushCount = push.size();
        f.pulledCount = pulled.size();
        t.status = ReminderTask.FIRED;
        tasks.update(t);
        mirror(ReminderMirror.task(t, t.fireAt));
        mirror(ReminderMirror.counts(t.taskId, bits.subscribers.size(), f.pulledCount, t.fireAt));
        forget(t.taskId);
        LOG.info(
                "Task {} fired (fireAt {}, watermark {}): {} to push, {} pulled",
                t.taskId,
                t.fireAt,
                timers.currentWatermark(),
                f.pushCount,
                f.pulledCount);
        fired.inc();
        pushes.inc(f.pushCount);
        pulls.inc(f.pulledCount);
        emit(f, t.fireAt);
    }

    /** Drops the current key's bitmaps: a fired or cancelled task keeps only its record. */
    private void forget(String taskId) {
        touched.remove(taskId);
        sizes.remove(taskId);
        subscribersState.clear();
        pulledState.clear();
    }

    /** The current key's bitmaps, from the heap or read from state. */
    private Bits bits(String taskId) throws Exception {
        Bits b = touched.get(taskId);
        if (b == null) {
            b =
                    new Bits(
                            UidSet.fromBytes(subscribersState.value()),
                            UidSet.fromBytes(pulledState.value()));
            touched.put(taskId, b);
        }
        return b;
    }

    /**
     * Writes the changed bitmaps back to state and lets the heap go; with {@code mirror}, tells the
     * reminders table the changed tasks' counts (for {@code GET /v1/reminders/tasks/{taskId}}).
     */
    private void flush(boolean mirror) throws Exception {
        long ts = Math.max(0, timers.currentWatermark());
        for (Map.Entry<String, Bits> e : touched.entrySet()) {
            Bits b = e.getValue();
            if (!b.dirty) {
                continue;
            }
            setCurrentKey(e.getKey());
            long bytes = write(subscribersState, b.subscribers) + write(pulledState, b.pulled);
            sizes.put(e.getKey(), new long[] {b.subscribers.size(), bytes});
            if (mirror) {
                mirror(
                        ReminderMirror.counts(
                                e.getKey(), b.subscribers.size(), b.pulled.size(), ts));
            }
        }
        touched.clear();
    }

    /** Writes {@code set} to {@code state}; returns the bytes written. */
    private static long write(ValueState<byte[]> state, UidSet set) throws Exception {
        if (set.isEmpty()) {
            state.clear();
            return 0;
        }
        byte[] bytes = set.toBytes();
        state.update(bytes);
        return bytes.length;
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        super.processWatermark(mark);
        flush(true);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        // the counts leave before the barrier: they belong to this checkpoint's output
        flush(true);
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        flush(false);
        super.snapshotState(ctx);
    }

    private void mirror(ReminderMirror m) {
        emit(ReminderTags.MIRROR, m, m.ts);
    }

    private void reject(ReminderEvent e, String reason) {
        rejections
                .computeIfAbsent(
                        reason,
                        r -> {
                            MetricGroup g = getMetricGroup().addGroup("reason", r);
                            return g.counter("remindersRejected");
                        })
                .inc();
        emit(ReminderTags.REJECTED, ReminderLine.rejected(e, reason), e.ts);
    }
}
