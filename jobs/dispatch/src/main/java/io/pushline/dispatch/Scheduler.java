package io.pushline.dispatch;

import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.ScheduleState;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.metrics.Counter;
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
 */
public class Scheduler extends KeyedProcessFunction<String, ParsedRecord, RegistryInput> {
    private final boolean campaigns;
    private final int chunkListsOver;
    private transient ListState<ParsedRecord> waiting;
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
        this.campaigns = campaigns;
        this.chunkListsOver = chunkListsOver;
    }

    @Override
    public void open(OpenContext openContext) {
        waiting = getRuntimeContext().getListState(ScheduleState.waiting());
        scheduled = getRuntimeContext().getMetricGroup().counter("scheduled");
        released = getRuntimeContext().getMetricGroup().counter("released");
        releasedLate = getRuntimeContext().getMetricGroup().counter("releasedLate");
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(ParsedRecord in, Context ctx, Collector<RegistryInput> out)
            throws Exception {
        long at = in.request.at;
        if (at <= ctx.timerService().currentWatermark()) {
            releasedLate.inc();
            guardedRelease(in, ctx, out);
            return;
        }
        scheduled.inc();
        waiting.add(in);
        ctx.timerService().registerEventTimeTimer(at);
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
        for (ParsedRecord r : due) {
            released.inc();
            guardedRelease(r, ctx, out);
        }
        waiting.update(later);
    }

    private void guardedRelease(ParsedRecord in, Context ctx, Collector<RegistryInput> out) {
        try {
            release(in, ctx, out);
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

    private void release(ParsedRecord in, Context ctx, Collector<RegistryInput> out) {
        PushRequest p = in.request;
        p.ts = p.at;
        p.at = null;
        if (!Routing.route(in, campaigns, chunkListsOver, ctx::output, out)) {
            deadLetters.inc();
        }
    }
}
