package io.pushline.dispatch;

import io.pushline.dispatch.pacing.PacerFeedback;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.ScheduleState;
import io.pushline.schema.pacing.PacingStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Holds requests that carry an {@code at} (personal slots, reminders) in keyed state, keyed by
 * msgId, with an event-time timer at {@code at}; when the watermark passes it, the request is
 * re-stamped to {@code at} and routed like any request due at that time, so the gate decides it at
 * its slot, in order with everything else. State and timers are checkpointed: a restart between
 * loading and release neither loses nor repeats a request.
 *
 * <p>A request whose {@code at} is already behind the watermark when it arrives (a late load) is
 * released at once, still stamped {@code at}; downstream treats it as any late record.
 *
 * <p>With a release rate (live traffic, {@code dispatch.schedule.release-rate}), at most that many
 * requests a second leave once due: a night's slots due in the same minute would otherwise reach
 * the uid index, registry and gate at once, and every realtime push behind them would wait until
 * the stages had decided them all. The rest wait in a queue (operator state, in {@code at} order)
 * and leave at later watermarks, each stamped with the time of the watermark step that releases it,
 * so it is never late downstream. Without a rate (replay's order) everything due leaves at once,
 * stamped {@code at}.
 *
 * <p>With a target delay too ({@link AdaptiveScheduleOperator}, which reads the vendor pacers'
 * reports), the rate is also held to what the stages before the gate absorb, as campaigns expand
 * ({@link PacerFeedback}): slots are single requests, dearer per push than a campaign's ids, and a
 * fixed rate above what the stages take only moves the queue in front of the gate.
 */
public class Scheduler extends KeyedProcessFunction<String, ParsedRecord, RegistryInput>
        implements CheckpointedFunction {
    private final boolean campaigns;
    private final int chunkListsOver;
    private final int releaseRate;
    private final long targetDelayMs;
    private transient PacerFeedback feedback;
    private transient ListState<ParsedRecord> waiting;
    private transient ListState<ParsedRecord> deferredState;
    private transient ArrayDeque<ParsedRecord> deferred;
    private transient double tokens;
    private transient long refilledAt;
    private transient long drainTimer;
    private transient Counter deferredCount;
    private transient Counter scheduled;
    private transient Counter released;
    private transient Counter releasedLate;
    private transient Counter deadLetters;
    private transient long failures;

    public Scheduler(boolean campaigns) {
        this(campaigns, Integer.MAX_VALUE);
    }

    /**
     * @param chunkListsOver see {@link SplitInput#chunkListsOver}
     */
    public Scheduler(boolean campaigns, int chunkListsOver) {
        this(campaigns, chunkListsOver, 0);
    }

    /**
     * @param releaseRate requests released a second over all subtasks once due; 0 for all at once
     */
    public Scheduler(boolean campaigns, int chunkListsOver, int releaseRate) {
        this(campaigns, chunkListsOver, releaseRate, 0);
    }

    /**
     * @param targetDelayMs with a release rate: the queue in front of the vendor pacers the
     *     adaptive rate aims at, from the reports {@link #report} is given; 0: the fixed rate alone
     */
    public Scheduler(boolean campaigns, int chunkListsOver, int releaseRate, long targetDelayMs) {
        this.campaigns = campaigns;
        this.chunkListsOver = chunkListsOver;
        this.releaseRate = releaseRate;
        this.targetDelayMs = targetDelayMs;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        deferredState = context.getOperatorStateStore().getListState(ScheduleState.deferred());
        deferred = new ArrayDeque<>();
        for (ParsedRecord r : deferredState.get()) {
            deferred.add(r);
        }
        drainTimer = Long.MIN_VALUE; // a restored queue gets a drain timer at the next call
        refilledAt = Long.MIN_VALUE;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        deferredState.update(new ArrayList<>(deferred));
    }

    @Override
    public void open(OpenContext openContext) {
        waiting = getRuntimeContext().getListState(ScheduleState.waiting());
        scheduled = getRuntimeContext().getMetricGroup().counter("scheduled");
        released = getRuntimeContext().getMetricGroup().counter("released");
        releasedLate = getRuntimeContext().getMetricGroup().counter("releasedLate");
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
        deferredCount = getRuntimeContext().getMetricGroup().counter("releaseDeferred");
        getRuntimeContext().getMetricGroup().gauge("releaseQueue", () -> deferred.size());
        if (releaseRate > 0 && targetDelayMs > 0) {
            feedback =
                    new PacerFeedback(
                            "Scheduled requests' release",
                            0,
                            targetDelayMs,
                            getRuntimeContext().getMetricGroup().counter("releaseRateCuts"));
            getRuntimeContext()
                    .getMetricGroup()
                    .gauge("releaseRateLimit", () -> Math.round(feedback.rate()));
        }
    }

    /**
     * A vendor pacer's report at processing time {@code now}, this subtask's input watermark then
     * {@code watermark}: how congested the stages before the gate are (with a target delay only).
     */
    void report(PacingStatus status, long now, long watermark) {
        if (feedback != null) {
            feedback.report(status, now, watermark, !deferred.isEmpty());
        }
    }

    @Override
    public void processElement(ParsedRecord in, Context ctx, Collector<RegistryInput> out)
            throws Exception {
        long at = in.request.at;
        long watermark = ctx.timerService().currentWatermark();
        if (at <= watermark) {
            releasedLate.inc();
            releaseOrDefer(in, at, ctx, out);
            drain(watermark + 1, ctx, out);
            return;
        }
        scheduled.inc();
        waiting.add(in);
        ctx.timerService().registerEventTimeTimer(at);
        // downstream has seen the watermark: what leaves now is stamped just after it
        drain(watermark + 1, ctx, out);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<RegistryInput> out)
            throws Exception {
        List<ParsedRecord> later = new ArrayList<>();
        List<ParsedRecord> due = new ArrayList<>();
        for (ParsedRecord r : waiting.get()) {
            (r.request.at <= timestamp ? due : later).add(r);
        }
        due.sort((a, b) -> Long.compare(a.request.at, b.request.at));
        // the queue first: it holds requests due before these
        drain(timestamp, ctx, out);
        for (ParsedRecord r : due) {
            released.inc();
            releaseOrDefer(r, r.request.at, ctx, out);
        }
        waiting.update(later);
        drain(timestamp, ctx, out);
    }

    /** Releases {@code in} stamped {@code ts} if the rate allows and nothing waits before it. */
    private void releaseOrDefer(
            ParsedRecord in, long ts, Context ctx, Collector<RegistryInput> out) {
        if (releaseRate > 0 && (!deferred.isEmpty() || !take(ctx))) {
            if (deferred.isEmpty() && feedback != null) {
                feedback.backlogStarts(
                        ctx.timerService().currentProcessingTime(),
                        ctx.timerService().currentWatermark());
            }
            deferredCount.inc();
            deferred.add(in);
            return;
        }
        guardedRelease(in, ts, ctx, out);
    }

    /**
     * Releases queued requests while the rate allows, each stamped {@code time} (or its {@code at},
     * if later): the timer being fired or just after the current watermark, either way after the
     * watermark downstream has seen; while any is left, a timer one millisecond after the watermark
     * brings the next step.
     */
    private void drain(long time, Context ctx, Collector<RegistryInput> out) {
        while (!deferred.isEmpty() && take(ctx)) {
            ParsedRecord r = deferred.poll();
            guardedRelease(r, Math.max(r.request.at, time), ctx, out);
        }
        long watermark = ctx.timerService().currentWatermark();
        if (!deferred.isEmpty() && drainTimer <= watermark) {
            drainTimer = watermark + 1;
            ctx.timerService().registerEventTimeTimer(drainTimer);
        }
    }

    /**
     * Takes one release from the bucket, refilled at this subtask's share of the rate, or at the
     * adaptive rate if lower (each subtask learns its own: its share of what the stages absorb).
     */
    private boolean take(Context ctx) {
        double perMs =
                releaseRate
                        / 1000.0
                        / getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        if (feedback != null && feedback.rate() > 0) {
            perMs = Math.min(perMs, feedback.rate() / 1000.0);
        }
        // at most one watermark step's worth (50 ms) at once: no burst after a quiet spell
        double max = Math.max(1, perMs * 50);
        long now = ctx.timerService().currentProcessingTime();
        if (refilledAt == Long.MIN_VALUE) {
            tokens = max;
        } else if (now > refilledAt) {
            tokens = Math.min(max, tokens + perMs * (now - refilledAt));
        }
        refilledAt = now;
        if (tokens < 1) {
            return false;
        }
        tokens--;
        if (feedback != null) {
            feedback.emitted(1, now);
        }
        return true;
    }

    private void guardedRelease(
            ParsedRecord in, long ts, Context ctx, Collector<RegistryInput> out) {
        try {
            release(in, ts, ctx, out);
        } catch (Throwable t) {
            deadLetters.inc();
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    RecordFailure.deadLetter(
                            "scheduler",
                            in.source + " " + in.position,
                            () -> Json.write(in.request),
                            t,
                            ++failures));
        }
    }

    private void release(ParsedRecord in, long ts, Context ctx, Collector<RegistryInput> out) {
        PushRequest p = in.request;
        p.ts = ts;
        p.at = null;
        if (!Routing.route(in, campaigns, chunkListsOver, ctx::output, out)) {
            deadLetters.inc();
        }
    }
}
