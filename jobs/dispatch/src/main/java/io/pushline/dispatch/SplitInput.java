package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Routes parsed input: device events and device-targeted requests to the registry (main output),
 * uid-targeted requests to the uid index ({@link DispatchTags#UID_KEYED}), audience-targeted ones
 * to the campaign expander ({@link DispatchTags#CAMPAIGNS}), requests with an {@code at} after
 * their time to the scheduler ({@link DispatchTags#SCHEDULED}), reminder events to the reminders
 * ({@link DispatchTags#REMINDERS}), bad records to {@link DispatchTags#DEAD_LETTERS}.
 */
public class SplitInput extends ProcessFunction<ParsedRecord, RegistryInput> {
    static final String NO_SEGMENT_STORE = Routing.NO_SEGMENT_STORE;

    private final boolean campaigns;
    private final long maxAheadMs;
    private final Duration maxFuture;
    private final Duration maxPast;
    private int chunkListsOver = Integer.MAX_VALUE;
    private transient Counter deadLetters;
    private transient long failures;

    /**
     * @param campaigns whether audience targets can be expanded ({@link DispatchTags#CAMPAIGNS});
     *     without a segment store they are dead letters
     */
    public SplitInput(boolean campaigns) {
        this(campaigns, Duration.ofDays(2));
    }

    /**
     * @param maxAhead how far after its time a request's {@code at} may be; further is a dead
     *     letter (it would sit in state for that long)
     */
    public SplitInput(boolean campaigns, Duration maxAhead) {
        this(campaigns, maxAhead, null, null);
    }

    /**
     * @param maxFuture how far ahead of the wall clock a record's {@code ts} may be; further is a
     *     dead letter. Null: no check (a replay has no wall clock of its own).
     * @param maxPast how far behind the wall clock a request's {@code ts} may be, likewise (not a
     *     device event's: the registry keeps bindings without TTL)
     */
    public SplitInput(boolean campaigns, Duration maxAhead, Duration maxFuture, Duration maxPast) {
        this.campaigns = campaigns;
        this.maxAheadMs = maxAhead.toMillis();
        this.maxFuture = maxFuture;
        this.maxPast = maxPast;
    }

    /**
     * With campaigns: lists longer than {@code n} go to the campaign expander, to be emitted in
     * chunks (see {@link Routing}); without this call every list goes straight.
     */
    public SplitInput chunkListsOver(int n) {
        this.chunkListsOver = n;
        return this;
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(ParsedRecord in, Context ctx, Collector<RegistryInput> out) {
        try {
            split(in, ctx, out);
        } catch (Throwable t) {
            deadLetters.inc();
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    RecordFailure.deadLetter(
                            "split-input",
                            in.source + " " + in.position,
                            () -> Json.write(payload(in)),
                            t,
                            ++failures));
        }
    }

    private void split(ParsedRecord in, Context ctx, Collector<RegistryInput> out) {
        if (in.dead != null) {
            deadLetters.inc();
            ctx.output(DispatchTags.DEAD_LETTERS, in.dead);
        } else if ((maxFuture != null || maxPast != null) && outsideHorizon(in, ctx)) {
            deadLetters.inc();
        } else if (in.reminder != null) {
            ctx.output(DispatchTags.REMINDERS, in.reminder);
        } else if (in.inbox != null) {
            ctx.output(DispatchTags.INBOX, in.inbox);
        } else if (in.event != null) {
            out.collect(RegistryInput.of(in.event));
        } else if (in.request.at != null && in.request.at > in.request.ts) {
            schedule(in, ctx);
        } else if (!Routing.route(in, campaigns, chunkListsOver, ctx::output, out)) {
            deadLetters.inc();
        }
    }

    /** Dead-letters {@code in} if its time is too far from the wall clock. */
    private boolean outsideHorizon(ParsedRecord in, Context ctx) {
        long ts = in.timestamp();
        long now = ctx.timerService().currentProcessingTime();
        String reason;
        if (maxFuture != null && ts > now + maxFuture.toMillis()) {
            reason = away(ts - now) + " ahead of the wall clock, more than " + maxFuture;
            reason += " (dispatch.max-future)";
        } else if (maxPast != null && in.request != null && ts < now - maxPast.toMillis()) {
            // Requests only: a binding has no TTL, so an old bind is as good as a new one.
            reason = away(now - ts) + " behind the wall clock, more than " + maxPast;
            reason += " (dispatch.max-past: the gate no longer remembers that time)";
        } else {
            return false;
        }
        ctx.output(
                DispatchTags.DEAD_LETTERS,
                DeadLetter.of(
                        in.source,
                        in.position,
                        "field 'ts' is " + reason,
                        Json.write(payload(in))));
        return true;
    }

    private static Object payload(ParsedRecord in) {
        if (in.event != null) {
            return in.event;
        }
        if (in.inbox != null) {
            return in.inbox;
        }
        return in.request != null ? in.request : in.reminder;
    }

    /** A distance in time, to the second; saturated for absurd timestamps. */
    private static String away(long ms) {
        return ms < 0 ? "far" : Duration.ofMillis(ms).withNanos(0).toString();
    }

    private void schedule(ParsedRecord in, Context ctx) {
        PushRequest p = in.request;
        if (p.at - p.ts > maxAheadMs) {
            deadLetters.inc();
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    DeadLetter.of(
                            in.source,
                            in.position,
                            "field 'at' is more than "
                                    + Duration.ofMillis(maxAheadMs)
                                    + " after 'ts' (dispatch.max-schedule-ahead)",
                            Json.write(p)));
        } else {
            ctx.output(DispatchTags.SCHEDULED, in);
        }
    }
}
