package io.pushline.reminders;

import io.pushline.audience.eval.IdSet;
import io.pushline.dispatch.pacing.PacerFeedback;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderState;
import io.pushline.schema.reminders.ScheduledTask;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Paces fired tasks at one rate shared by all of them (parallelism 1): takes them in firing order
 * ({@code fireAt}, then taskId) once the watermark has passed their time, so that tasks firing in
 * the same second from different subtasks are ordered alike, and gives each push its send time in
 * the contract's greedy schedule ({@link GreedySchedule}). Out come {@link ReminderChunk}s: a
 * task's pushes, ascending ids that share a send time, and its pulled subscribers (at its fireAt).
 *
 * <p>In a replay the chunks go out at once, carrying their send times. In real time a push leaves
 * only when the wall clock reaches its send time, spread in slices over the first 800 ms of its
 * second, so the pushes of a second do not leave as one burst. Fired tasks and how far each got are
 * operator state, and so is the schedule's cursor: a restore neither loses nor repeats a push (with
 * exactly-once sinks).
 *
 * <p>A pulled subscriber costs a dictionary lookup and a decision downstream but is not a push: in
 * real time the pulled go out only once no push is queued, at most {@code rate} a second, so their
 * lookups do not take the CPU the pushes of a firing need. In a replay they go out alongside the
 * pushes, in proportion.
 *
 * <p>With a target delay ({@link AdaptiveReminderPacer}, which reads the vendor pacers' reports)
 * the pushes also leave no faster than the stages between here and the gate absorb them, as
 * campaigns expand ({@link PacerFeedback}): a task's chunks queued in the network buffers before
 * the gate would hold the gate's watermark back, and every realtime push with it, by as long as
 * they take to drain. What the rate does not allow waits here, in the schedule, from the current
 * second on.
 */
public class ReminderPacer extends AbstractStreamOperator<ReminderChunk>
        implements OneInputStreamOperator<FiredTask, ReminderChunk>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /**
     * Real time: a second's pushes go out in this many slices, one every {@link #SLICE_MS}, all
     * within the first 800 ms, so that the stages after the pacer have a fifth of a second to write
     * them before the next second's begin: the rate holds where the sends are written, not only in
     * the schedule.
     */
    static final int SLICES = 20;

    static final long SLICE_MS = 40;

    private static final Comparator<ScheduledTask> FIRING_ORDER =
            Comparator.<ScheduledTask>comparingLong(s -> s.task.fireAt)
                    .thenComparing(s -> s.task.taskId);

    private final int rate;
    private final int chunkSize;
    private final boolean realTime;
    private final long catchUpMs;
    private final long targetDelayMs;

    private transient List<ScheduledTask> pending;
    private transient ArrayDeque<ScheduledTask> queue;
    private transient ArrayDeque<ScheduledTask> draining;
    private transient IdSet drainingPulled;
    private transient long drainSecond;
    private transient long drainUsed;
    private transient GreedySchedule schedule;
    private transient ListState<ScheduledTask> tasksState;
    private transient ListState<Long> cursorState;
    private transient IdSet headPushes;
    private transient IdSet headPulled;
    private transient boolean releaseScheduled;
    private transient Counter pushed;
    private transient Counter pulled;
    private transient PacerFeedback feedback;
    private transient long inputWatermark = Long.MIN_VALUE;

    /**
     * @param rate pushes per whole second, over all tasks
     * @param chunkSize most ids per chunk
     * @param realTime true: each push leaves when the wall clock reaches its send time; false (a
     *     replay): at once
     */
    public ReminderPacer(int rate, int chunkSize, boolean realTime) {
        this(rate, chunkSize, realTime, 0);
    }

    /**
     * As above; in real time, a pacer that fell behind its schedule (backpressure, a late
     * watermark, a restore) makes up to {@code catchUpMs} of it at once, rounded up to whole
     * seconds: the {@link ReminderMeter} after the gate holds the rate where the sends are written
     * and smooths the burst. 0: the schedule restarts from the current second, never two seconds'
     * pushes in one.
     */
    public ReminderPacer(int rate, int chunkSize, boolean realTime, long catchUpMs) {
        this(rate, chunkSize, realTime, catchUpMs, 0);
    }

    /**
     * As above; in real time and with {@code targetDelayMs} > 0, pushes also leave at most at the
     * rate the pacers' reports (see {@link #report}) allow, which keeps the queue in front of the
     * vendor pacers near that delay.
     */
    protected ReminderPacer(
            int rate, int chunkSize, boolean realTime, long catchUpMs, long targetDelayMs) {
        if (rate <= 0 || chunkSize <= 0 || catchUpMs < 0 || targetDelayMs < 0) {
            throw new IllegalArgumentException(
                    "rate and chunk size must be positive, catch-up and target delay not negative");
        }
        this.rate = rate;
        this.chunkSize = chunkSize;
        this.realTime = realTime;
        this.catchUpMs = (catchUpMs + 999) / 1000 * 1000;
        this.targetDelayMs = targetDelayMs;
    }

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        pending = new ArrayList<>();
        queue = new ArrayDeque<>();
        draining = new ArrayDeque<>();
        tasksState = ctx.getOperatorStateStore().getListState(ReminderState.pacerTasks());
        cursorState = ctx.getOperatorStateStore().getListState(ReminderState.pacerCursor());
        for (ScheduledTask s : tasksState.get()) {
            if (!s.scheduled) {
                pending.add(s);
            } else if (s.sent >= s.task.pushCount) {
                draining.add(s);
            } else {
                queue.add(s);
            }
        }
        List<Long> cursor = new ArrayList<>();
        cursorState.get().forEach(cursor::add);
        schedule =
                cursor.size() == 2
                        ? new GreedySchedule(rate, cursor.get(0), cursor.get(1))
                        : new GreedySchedule(rate);
    }

    @Override
    public void open() throws Exception {
        super.open();
        pushed = getMetricGroup().counter("remindersPushed");
        pulled = getMetricGroup().counter("remindersPulledOut");
        getMetricGroup().gauge("reminderTasksQueued", () -> queue.size() + pending.size());
        getMetricGroup().gauge("reminderPushesWaiting", this::pushesWaiting);
        getMetricGroup().gauge("reminderPulledWaiting", this::pulledWaiting);
        if (realTime && targetDelayMs > 0) {
            feedback =
                    new PacerFeedback(
                            "Reminder pacing",
                            0,
                            targetDelayMs,
                            getMetricGroup().counter("reminderRateCuts"));
            getMetricGroup().gauge("reminderRateLimit", () -> Math.round(feedback.rate()));
        }
        if (realTime && !(queue.isEmpty() && draining.isEmpty())) {
            scheduleRelease(0);
        }
    }

    @Override
    public void processElement(StreamRecord<FiredTask> element) {
        pending.add(ScheduledTask.of(element.getValue()));
    }

    /** A vendor pacer's report (a target delay only): how congested the stages before it are. */
    protected void report(PacingStatus status) {
        if (feedback != null) {
            feedback.report(status, now(), inputWatermark, !queue.isEmpty());
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        inputWatermark = Math.max(inputWatermark, mark.getTimestamp());
        take(mark.getTimestamp());
        release(realTime ? now() : Long.MAX_VALUE);
        super.processWatermark(mark);
    }

    @Override
    public void endInput() throws Exception {
        take(Long.MAX_VALUE);
        release(Long.MAX_VALUE);
        // No timer fires after the end of input: the pulled still waiting for the rate leave now
        // (a bounded run, the demo's, would otherwise lose all but a second's worth).
        drain(Long.MAX_VALUE, false);
    }

    /** Queues, in firing order, the fired tasks whose time the watermark has passed. */
    private void take(long watermark) {
        List<ScheduledTask> due = new ArrayList<>();
        pending.removeIf(
                s -> {
                    if (s.task.fireAt <= watermark) {
                        due.add(s);
                        return true;
                    }
                    return false;
                });
        due.sort(FIRING_ORDER);
        for (ScheduledTask s : due) {
            s.scheduled = true;
            if (queue.isEmpty() && feedback != null) {
                feedback.backlogStarts(now(), inputWatermark);
            }
            queue.add(s);
            LOG.info(
                    "Reminder task {} (fireAt {}) queued behind {} others: {} pushes",
                    s.task.taskId,
                    s.task.fireAt,
                    queue.size() - 1,
                    s.task.pushCount);
        }
    }

    /** Emits what may leave by {@code now}; in real time, asks to be called again when more may. */
    private void release(long now) {
        while (!queue.isEmpty()) {
            ScheduledTask head = queue.peek();
            FiredTask t = head.task;
            if (headPushes == null) {
                headPushes = t.push == null ? IdSet.of() : IdSet.fromBytes(t.push);
                headPulled = realTime || t.pulled == null ? IdSet.of() : IdSet.fromBytes(t.pulled);
            }
            while (true) {
                long at =
                        schedule.prepare(
                                realTime ? Math.max(t.fireAt, thisSecond() - catchUpMs) : t.fireAt);
                long room = Math.min(schedule.room(), chunkSize);
                if (at > now) {
                    scheduleRelease(at);
                    return;
                }
                if (realTime) {
                    room = Math.min(room, allowedNow(at, now));
                    if (room <= 0) {
                        scheduleRelease(now + SLICE_MS);
                        return;
                    }
                    if (feedback != null) {
                        long due = feedback.nextDueMs();
                        if (due > now) {
                            scheduleRelease(due);
                            return;
                        }
                        room = feedback.chunkSize((int) room);
                    }
                }
                int[] ids = headPushes.chunk(head.nextId, (int) room);
                if (ids.length == 0) {
                    break;
                }
                schedule.take(ids.length);
                head.nextId = (ids[ids.length - 1] & 0xFFFFFFFFL) + 1;
                head.sent += ids.length;
                pushed.inc(ids.length);
                emit(t, ReminderLine.PUSH, ids, at);
                if (feedback != null) {
                    feedback.emitted(ids.length, now);
                }
                if (!realTime) {
                    pulledUpTo(
                            head,
                            headPulled,
                            (long) Math.ceil((double) t.pulledCount * head.sent / t.pushCount));
                }
            }
            if (realTime) {
                draining.add(head);
            } else {
                pulledUpTo(head, headPulled, t.pulledCount);
                head.pulledOut = true;
            }
            queue.poll();
            headPushes = null;
            headPulled = null;
        }
        drain(now, true);
    }

    /**
     * In real time, with no push queued: emits the pulled subscribers of tasks whose pushes are all
     * out, in firing order, at most {@code rate} a second in the pacer's slices; all at once when
     * not {@code atRate} (the end of input).
     */
    private void drain(long now, boolean atRate) {
        while (!draining.isEmpty()) {
            ScheduledTask head = draining.peek();
            if (drainingPulled == null) {
                drainingPulled =
                        head.task.pulled == null ? IdSet.of() : IdSet.fromBytes(head.task.pulled);
            }
            long second = Math.floorDiv(now, 1000L) * 1000L;
            if (second != drainSecond) {
                drainSecond = second;
                drainUsed = 0;
            }
            long room = atRate ? allowedBy(rate, second, now) - drainUsed : head.task.pulledCount;
            if (room <= 0) {
                scheduleRelease(now + SLICE_MS);
                return;
            }
            long before = head.pulledSent;
            pulledUpTo(head, drainingPulled, Math.min(head.task.pulledCount, before + room));
            drainUsed += head.pulledSent - before;
            if (head.pulledSent >= head.task.pulledCount || head.pulledSent == before) {
                head.pulledOut = true;
                draining.poll();
                drainingPulled = null;
            }
        }
    }

    /**
     * In real time, how many more pushes may leave in the current second by {@code now}: one slice
     * of the rate per {@link #SLICE_MS} gone by, so a second's pushes spread over it.
     */
    private long allowedNow(long at, long now) {
        return allowedBy(rate, Math.floorDiv(at, 1000L) * 1000L, now) - schedule.used();
    }

    /** The slices of the second at {@code secondStart} that have begun by {@code now}, 1 to 20. */
    static long slicesBy(long secondStart, long now) {
        return Math.min(SLICES, Math.max(0, (now - secondStart) / SLICE_MS) + 1);
    }

    /**
     * How many of a second's {@code rate} pushes may have left by {@code now}: one slice of the
     * rate per {@link #SLICE_MS} gone by since {@code secondStart}. Shared with {@link
     * ReminderMeter}, which holds the same schedule where the sends are written.
     */
    static long allowedBy(int rate, long secondStart, long now) {
        return (rate * slicesBy(secondStart, now) + SLICES - 1) / SLICES;
    }

    private void scheduleRelease(long at) {
        if (!realTime || releaseScheduled) {
            return;
        }
        releaseScheduled = true;
        getProcessingTimeService()
                .registerTimer(
                        Math.max(at, now()),
                        t -> {
                            releaseScheduled = false;
                            release(now());
                        });
    }

    /**
     * In real time the schedule never starts in a second that has passed: a pacer that is behind
     * (the watermark reached fireAt late, a restore) would otherwise send two seconds' pushes in
     * one. Its pushes then go out from the current second on, still at most {@code rate} a second.
     */
    private long thisSecond() {
        return Math.floorDiv(now(), 1000L) * 1000L;
    }

    private long now() {
        return getProcessingTimeService().getCurrentProcessingTime();
    }

    /**
     * Emits {@code head}'s pulled subscribers ({@code ids}) until {@code target} of them are out.
     */
    private void pulledUpTo(ScheduledTask head, IdSet pulledIds, long target) {
        while (head.pulledSent < target) {
            int[] ids =
                    pulledIds.chunk(
                            head.pulledNext, (int) Math.min(chunkSize, target - head.pulledSent));
            if (ids.length == 0) {
                return;
            }
            head.pulledNext = (ids[ids.length - 1] & 0xFFFFFFFFL) + 1;
            head.pulledSent += ids.length;
            pulled.inc(ids.length);
            emit(head.task, ReminderLine.PULLED, ids, head.task.fireAt);
        }
    }

    private void emit(FiredTask t, String action, int[] ids, long at) {
        ReminderChunk c = new ReminderChunk();
        c.taskId = t.taskId;
        c.title = t.title;
        c.body = t.body;
        c.fireAt = t.fireAt;
        c.action = action;
        c.at = at;
        c.ids = ids;
        output.collect(new StreamRecord<>(c, at));
    }

    private long pulledWaiting() {
        long n = 0;
        for (ScheduledTask s : draining) {
            n += s.task.pulledCount - s.pulledSent;
        }
        for (ScheduledTask s : queue) {
            n += s.task.pulledCount - s.pulledSent;
        }
        for (ScheduledTask s : pending) {
            n += s.task.pulledCount;
        }
        return n;
    }

    private long pushesWaiting() {
        long n = 0;
        for (ScheduledTask s : queue) {
            n += s.task.pushCount - s.sent;
        }
        for (ScheduledTask s : pending) {
            n += s.task.pushCount;
        }
        return n;
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        List<ScheduledTask> all = new ArrayList<>(queue);
        all.addAll(draining);
        all.addAll(pending);
        tasksState.update(all);
        cursorState.update(List.of(schedule.second(), schedule.used()));
    }
}
