package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.audience.ExpressionException;
import io.pushline.audience.IdSet;
import io.pushline.audience.NoSuchAudienceException;
import io.pushline.audience.SavedAudienceStore;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.CampaignProgress;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.operators.YieldingOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * Expands campaigns (requests whose target is an audience expression): evaluates the expression
 * once, then emits the audience in chunks of ascending dense ids, one chunk per mailbox step so
 * that checkpoints, watermarks and backpressure interleave with a long expansion.
 *
 * <p>What has not been emitted is checkpointed (the audience's bitmap and the next id), so a
 * restore resumes exactly after the last chunk the checkpoint saw: with the exactly-once sinks, no
 * device is lost or sent twice. The output watermark stays below every running campaign's event
 * time until its last chunk is out, so each downstream stage still sees the whole campaign at its
 * time, in the same order as replay. An expression that does not parse or names an unknown segment
 * sends nothing and goes to {@link DispatchTags#DEAD_LETTERS}.
 */
public class CampaignExpander extends AbstractStreamOperator<AudienceChunk>
        implements TwoInputStreamOperator<ParsedRecord, PacingStatus, AudienceChunk>,
                BoundedMultiInput,
                YieldingOperator<AudienceChunk> {
    private static final long serialVersionUID = 1L;
    static final String REJECTED = "audience expression rejected: ";

    /** How often a paused expansion looks at the backlogs again. */
    static final long PAUSE_CHECK_MS = 100;

    /** A backlog report older than this is not trusted (the pacer may be gone or restarting). */
    static final long STATUS_FRESH_MS = 5_000;

    /** First and longest wait before asking a failing segment store again. */
    static final long RETRY_FIRST_MS = 1_000;

    static final long RETRY_MAX_MS = 60_000;

    /**
     * What campaigns may hold on the heap: the audiences of those being expanded (their bitmaps)
     * and the requests waiting for the store. Past either bound the expander takes no new campaign
     * (backpressure) and only expands, until the ones in flight are under it again.
     */
    static final long MAX_HELD_BYTES = 256L << 20;

    static final int MAX_WAITING = 10_000;

    /** The adaptive rate is changed at most this often (the pacer reports every 200 ms). */
    static final long ADJUST_EVERY_MS = 200;

    /** A pacer report older than this says nothing about congestion now. */
    static final long LAG_FRESH_MS = 1_000;

    /** The adaptive rate never goes below this, so a campaign always moves. */
    static final double MIN_ADAPTIVE_RATE = 1_000;

    /** Where the adaptive rate starts when a campaign starts with nothing learned yet. */
    static final double INITIAL_ADAPTIVE_RATE = 5_000;

    /**
     * Without the hold, the ids emitted before the input watermark moves on. Chunks are stamped at
     * the input watermark, so every stage after this one releases them only at the next watermark:
     * more per watermark is only a bigger batch waiting there (and a longer step that checkpoint
     * barriers wait behind), not a faster campaign. Stopping here also gives the input a turn,
     * which emitting into a backpressured output would starve.
     */
    static final long MAX_IDS_PER_WATERMARK = 20_000;

    /** How long the expansion waits for the watermark before it goes on with another batch. */
    static final long MAX_WATERMARK_WAIT_MS = 1_000;

    private transient MailboxExecutor mailbox;

    private final Audiences.Factory factory;
    private final int chunkSize;
    private final long maxIdsPerSecond;
    private final long maxVendorBacklog;
    private final boolean holdWatermark;
    private final long targetDelayMs;

    private transient Audiences audiences;
    private transient ArrayDeque<Running> running;
    private transient ListState<CampaignProgress> checkpointed;
    private transient long inputWatermark;
    private transient long outputWatermark;
    private transient boolean stepScheduled;
    private transient long stepDueMs;
    private transient long stepGeneration;
    private transient long idsAtThisWatermark;

    /** When the batch of this watermark filled up; {@code Long.MIN_VALUE} while it has room. */
    private transient long batchFullAt;

    private transient Counter watermarkWaits;
    private transient boolean inputIdle;
    private transient boolean outputIdle;
    private transient Counter campaigns;
    private transient Counter rejected;
    private transient Counter chunks;
    private transient Counter ids;
    private transient Counter pausedMs;
    private transient Map<String, PacingStatus> vendors;
    private transient long pausedSince;
    private transient ArrayDeque<ParsedRecord> waiting;
    private transient ListState<ParsedRecord> waitingState;
    private transient Backoff backoff;
    private transient Counter storeFailures;

    /** Ids per second for all campaigns together, learned from the pacer's reports; 0: none. */
    private transient double adaptiveRate;

    /** Until the first cut the rate grows fast; after it, gently (as TCP after slow start). */
    private transient boolean slowStart;

    private transient long nextGlobalDueMs;
    private transient long lastAdjustMs;
    private transient long idsSinceAdjust;
    private transient long lastSlowLogMs;
    private transient Counter rateCuts;

    /**
     * @param chunkSize ids per chunk
     * @param maxIdsPerSecond expansion rate limit per campaign stream, 0 for none
     */
    public CampaignExpander(Audiences.Factory factory, int chunkSize, long maxIdsPerSecond) {
        this(factory, chunkSize, maxIdsPerSecond, 0, true);
    }

    /**
     * @param maxVendorBacklog expansion pauses while a vendor's pacer reports more waiting sends
     *     than this (input 2); 0 never pauses
     * @param holdWatermark true: a campaign is decided at its request's time, and the output
     *     watermark waits for its last chunk (replay's order; later pushes wait for the campaign);
     *     false: each chunk is decided when it is expanded (at the request's time or the input
     *     watermark, the later), and nothing waits for a campaign
     */
    public CampaignExpander(
            Audiences.Factory factory,
            int chunkSize,
            long maxIdsPerSecond,
            long maxVendorBacklog,
            boolean holdWatermark) {
        this(factory, chunkSize, maxIdsPerSecond, maxVendorBacklog, holdWatermark, 0);
    }

    /**
     * @param targetDelayMs with {@code holdWatermark} false: the expansion rate adapts (cut by a
     *     third while the pacer reports its sends arriving more than this late beyond the
     *     watermark's own delay, raised by a tenth while they do not), so that a campaign does not
     *     queue up in front of the pacer where realtime sends cannot overtake it; 0 turns it off
     */
    public CampaignExpander(
            Audiences.Factory factory,
            int chunkSize,
            long maxIdsPerSecond,
            long maxVendorBacklog,
            boolean holdWatermark,
            long targetDelayMs) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunk size must be positive: " + chunkSize);
        }
        this.factory = factory;
        this.chunkSize = chunkSize;
        this.maxIdsPerSecond = maxIdsPerSecond;
        this.maxVendorBacklog = maxVendorBacklog;
        this.holdWatermark = holdWatermark;
        this.targetDelayMs = targetDelayMs;
    }

    /** A campaign being expanded: its checkpointed progress and the audience it walks. */
    private static final class Running {
        final CampaignProgress progress;
        final IdSet audience;

        /** Processing time before which its rate allows no next chunk. */
        long nextDueMs;

        Running(CampaignProgress progress, IdSet audience) {
            this.progress = progress;
            this.audience = audience;
        }
    }

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        running = new ArrayDeque<>();
        inputWatermark = Long.MIN_VALUE;
        outputWatermark = Long.MIN_VALUE;
        checkpointed =
                ctx.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "campaigns", TypeInformation.of(CampaignProgress.class)));
        for (CampaignProgress p : checkpointed.get()) {
            running.add(new Running(p, IdSet.fromBytes(p.audience)));
        }
        waiting = new ArrayDeque<>();
        waitingState =
                ctx.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "campaigns-waiting-for-store",
                                        TypeInformation.of(ParsedRecord.class)));
        for (ParsedRecord r : waitingState.get()) {
            waiting.add(r);
        }
        if (!running.isEmpty()) {
            LOG.info("Resuming {} campaign(s) from the checkpoint", running.size());
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        audiences = factory.open();
        campaigns = getMetricGroup().counter("campaigns");
        rejected = getMetricGroup().counter("campaignsRejected");
        chunks = getMetricGroup().counter("audienceChunks");
        ids = getMetricGroup().counter("audienceIds");
        pausedMs = getMetricGroup().counter("expansionPausedMs");
        vendors = new HashMap<>();
        getMetricGroup().gauge("expansionPaused", () -> pausedSince > 0 ? 1 : 0);
        getMetricGroup().gauge("campaignsRunning", () -> running.size());
        getMetricGroup().gauge("campaignIdsPending", this::pendingIds);
        getMetricGroup().gauge("campaignsWaitingForStore", () -> waiting.size());
        storeFailures = getMetricGroup().counter("segmentStoreFailures");
        rateCuts = getMetricGroup().counter("expansionRateCuts");
        watermarkWaits = getMetricGroup().counter("expansionWatermarkWaits");
        batchFullAt = Long.MIN_VALUE;
        getMetricGroup().gauge("expansionRateLimit", () -> Math.round(adaptiveRate));
        backoff = new Backoff(RETRY_FIRST_MS, RETRY_MAX_MS);
        schedule(0);
        if (!waiting.isEmpty()) {
            scheduleRetry();
        }
    }

    @Override
    public void setMailboxExecutor(MailboxExecutor mailbox) {
        this.mailbox = mailbox;
    }

    @Override
    public void processElement1(StreamRecord<ParsedRecord> element) throws Exception {
        while (mailbox != null
                && (heldBytes() >= MAX_HELD_BYTES || waiting.size() >= MAX_WAITING)) {
            mailbox.yield(); // expansion steps and store retries are mail: they run here
        }
        ParsedRecord in = element.getValue();
        if (!waiting.isEmpty()) {
            waiting.add(in); // in order, behind those already waiting for the store
            return;
        }
        expand(in, false);
    }

    /**
     * Evaluates and starts {@code in}; returns false when the store failed and it must wait.
     *
     * @param waited whether it waited for the store: then it is decided from the current event time
     *     on, not at its own (long passed, and holding event time back for it would stop every
     *     realtime push behind it)
     */
    private boolean expand(ParsedRecord in, boolean waited) {
        PushRequest p = in.request;
        IdSet audience;
        String expression = p.target.audience;
        try {
            if (p.target.savedAudience != null) {
                SavedAudienceStore.Version v = audiences.saved(p.target.savedAudience);
                expression = v.expression;
                audiences.usedBy(p.target.savedAudience, v.version, p.msgId, p.ts);
            }
            audience = audiences.evaluate(expression);
        } catch (NoSuchAudienceException e) {
            reject(DeadLetter.of(in.source, in.position, e.getMessage(), Json.write(p)));
            return true;
        } catch (ExpressionException e) {
            reject(DeadLetter.of(in.source, in.position, REJECTED + e.getMessage(), Json.write(p)));
            return true;
        } catch (Throwable t) {
            if (RecordFailure.isOutsideFailure(t)) {
                storeFailures.inc();
                if (waiting.isEmpty()) {
                    LOG.warn(
                            "Segment store failed ({}): campaign {} waits and is asked again in"
                                    + " {} ms; realtime pushes go on",
                            t.toString(),
                            p.msgId,
                            backoff.delayMs());
                }
                if (waited) {
                    backoff.failedAgain();
                }
                waiting.addFirst(in);
                scheduleRetry();
                return false;
            }
            reject(
                    RecordFailure.deadLetter(
                            "campaign-expander",
                            in.source + " " + in.position,
                            () -> Json.write(p),
                            t,
                            rejected.getCount() + 1));
            return true;
        }
        campaigns.inc();
        if (outputIdle) {
            outputIdle = false;
            output.emitWatermarkStatus(WatermarkStatus.ACTIVE);
        }
        long size = audience.cardinality();
        LOG.info(
                "Campaign {} at {}: '{}'{} selects {} ids",
                p.msgId,
                p.ts,
                expression,
                p.target.savedAudience == null ? "" : " (" + p.target.savedAudience + ")",
                size);
        if (size == 0) {
            return true;
        }
        if (waited && p.ts <= inputWatermark) {
            p.ts = inputWatermark + 1;
        }
        if (adaptiveRate == 0
                && adapts()
                && queueingMs(getProcessingTimeService().getCurrentProcessingTime())
                        != Long.MIN_VALUE) {
            adaptiveRate = INITIAL_ADAPTIVE_RATE; // slow start: the reports will tell how fast
            slowStart = true;
        }
        running.add(
                new Running(
                        CampaignProgress.start(p.withoutTarget(), audience.toBytes(), size),
                        audience));
        schedule(0);
        return true;
    }

    private void scheduleRetry() {
        backoff.schedule(getProcessingTimeService(), t -> retry());
    }

    /** Asks the store again for the campaigns waiting on it, in order, until one fails. */
    private void retry() {
        while (!waiting.isEmpty()) {
            if (!expand(waiting.poll(), true)) {
                return;
            }
        }
        if (backoff.reset()) {
            LOG.info("Segment store answers again: waiting campaigns started");
        }
        forwardStatus();
    }

    private void reject(DeadLetter dead) {
        rejected.inc();
        output.collect(DispatchTags.DEAD_LETTERS, new StreamRecord<>(dead));
    }

    /** A vendor's backlog from the pacer (through push.pacing). */
    @Override
    public void processElement2(StreamRecord<PacingStatus> element) {
        PacingStatus s = element.getValue();
        vendors.put(s.vendor, s);
        adapt();
    }

    /**
     * Congestion control for campaigns. The pacer reports how far event time has come through the
     * stages before it (its watermark); the gap to the event time here is what those stages hold,
     * the campaign's queue that realtime sends wait behind. While it exceeds the target the rate is
     * cut by a third; while it does not, the rate grows by a quarter per report until the first cut
     * and by a twentieth after it: so a campaign starts slowly, finds what the stages absorb within
     * seconds, and then stays just under it without overshooting by much. Without fresh reports
     * nothing is known, and only backpressure limits the expansion.
     */
    private void adapt() {
        if (!adapts()) {
            return;
        }
        long now = getProcessingTimeService().getCurrentProcessingTime();
        if (now - lastAdjustMs < ADJUST_EVERY_MS) {
            return;
        }
        long elapsed = now - lastAdjustMs;
        long emitted = idsSinceAdjust;
        lastAdjustMs = now;
        idsSinceAdjust = 0;
        long queued = queueingMs(now);
        if (queued == Long.MIN_VALUE) {
            adaptiveRate = 0;
            return;
        }
        if (running.isEmpty() || pausedSince > 0) {
            return; // nothing is being expanded: the reports say nothing about its rate
        }
        if (queued > targetDelayMs) {
            slowStart = false;
            adaptiveRate = Math.max(MIN_ADAPTIVE_RATE, adaptiveRate * 2 / 3);
            rateCuts.inc();
            if (now - lastSlowLogMs >= 10_000) {
                lastSlowLogMs = now;
                LOG.info(
                        "Campaign expansion slowed to {} ids/s: the pacer's event time trails"
                                + " this stage's by {} ms (target {} ms)",
                        Math.round(adaptiveRate),
                        queued,
                        targetDelayMs);
            }
        } else if (adaptiveRate > 0) {
            // grows only while it is what limits: at most twice the rate achieved
            double achieved = emitted * 1000.0 / Math.max(1, elapsed);
            double growth = slowStart ? 1.25 : 1.05;
            adaptiveRate = Math.min(adaptiveRate * growth, Math.max(2 * achieved, adaptiveRate));
        }
    }

    /** Whether the rate adapts at all: a target is set and chunks do not hold the watermark. */
    private boolean adapts() {
        return targetDelayMs > 0 && !holdWatermark;
    }

    /**
     * How far the pacers' event time trailed this stage's, from the freshest report of each vendor
     * (the slowest vendor counts); {@code Long.MIN_VALUE} without fresh reports.
     */
    private long queueingMs(long now) {
        long worst = Long.MIN_VALUE;
        for (PacingStatus s : vendors.values()) {
            if (now - s.ts <= LAG_FRESH_MS && s.watermark > 0) {
                worst = Math.max(worst, s.ts - s.watermark);
            }
        }
        if (worst == Long.MIN_VALUE || inputWatermark == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        return worst - Math.max(0, now - inputWatermark);
    }

    @Override
    public void processWatermark1(Watermark mark) {
        if (mark.getTimestamp() > inputWatermark) {
            inputWatermark = mark.getTimestamp();
            if (!holdWatermark && idsAtThisWatermark > 0) {
                idsAtThisWatermark = 0;
                batchFullAt = Long.MIN_VALUE;
                schedule(0); // an expansion waiting for the watermark goes on now
            }
        }
        forwardWatermark();
    }

    /** The pacer's reports carry no event time. */
    @Override
    public void processWatermark2(Watermark mark) {}

    /**
     * An idle input must not make the output idle while a campaign expands: downstream would then
     * ignore the held watermark and run ahead of the chunks still to come.
     */
    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int index) {
        if (index != 0) {
            return; // the pacer's reports carry no event time
        }
        inputIdle = status.isIdle();
        forwardStatus();
    }

    private void forwardStatus() {
        boolean idle = inputIdle && running.isEmpty();
        if (idle != outputIdle) {
            outputIdle = idle;
            output.emitWatermarkStatus(idle ? WatermarkStatus.IDLE : WatermarkStatus.ACTIVE);
        }
    }

    @Override
    public void endInput(int inputId) {
        if (inputId != 1) {
            return;
        }
        // Processing-time steps do not run after the input ends: finish what is left here, with
        // one last question to the store for the campaigns that wait on it.
        retry();
        for (ParsedRecord in : waiting) {
            reject(
                    DeadLetter.of(
                            in.source,
                            in.position,
                            "the segment store did not answer before the input ended",
                            Json.write(in.request)));
        }
        waiting.clear();
        while (!running.isEmpty()) {
            emitChunk(running.peek());
        }
        forwardWatermark();
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        List<CampaignProgress> all = new ArrayList<>(running.size());
        for (Running r : running) {
            all.add(r.progress);
        }
        checkpointed.update(all);
        waitingState.update(new ArrayList<>(waiting));
    }

    @Override
    public void close() throws Exception {
        if (audiences != null) {
            audiences.close();
        }
        super.close();
    }

    /**
     * Runs the next step in {@code delayMs}, unless one is due sooner. A step due later is replaced
     * (its timer still fires, but does nothing), so there is only ever one chain of steps.
     */
    private void schedule(long delayMs) {
        if (running.isEmpty()) {
            return;
        }
        ProcessingTimeService time = getProcessingTimeService();
        long due = time.getCurrentProcessingTime() + delayMs;
        if (stepScheduled && stepDueMs <= due) {
            return;
        }
        stepScheduled = true;
        stepDueMs = due;
        long generation = ++stepGeneration;
        time.registerTimer(
                due,
                t -> {
                    if (generation == stepGeneration) {
                        step();
                    }
                });
    }

    private void step() {
        stepScheduled = false;
        if (running.isEmpty()) {
            return;
        }
        long now = getProcessingTimeService().getCurrentProcessingTime();
        if (!holdWatermark && idsAtThisWatermark >= MAX_IDS_PER_WATERMARK) {
            if (batchFullAt == Long.MIN_VALUE) {
                batchFullAt = now;
                watermarkWaits.inc();
            }
            if (now - batchFullAt < MAX_WATERMARK_WAIT_MS) {
                schedule(batchFullAt + MAX_WATERMARK_WAIT_MS - now);
                return;
            }
            // the input is quiet or stalled: another batch, so the campaign never stops
            idsAtThisWatermark = 0;
            batchFullAt = Long.MIN_VALUE;
        }
        String behind = vendorBehind(now);
        if (behind != null) {
            if (pausedSince == 0) {
                pausedSince = now;
                LOG.info("Campaign expansion paused: {}", vendors.get(behind));
            }
            schedule(PAUSE_CHECK_MS);
            return;
        }
        if (pausedSince > 0) {
            pausedMs.inc(now - pausedSince);
            LOG.info("Campaign expansion resumed after {} ms", now - pausedSince);
            pausedSince = 0;
        }
        if (adaptiveRate > 0 && now < nextGlobalDueMs) {
            schedule(nextGlobalDueMs - now);
            return;
        }
        Running next = null;
        long due = Long.MAX_VALUE;
        for (Running r : running) {
            if (r.nextDueMs <= now) {
                next = r;
                break;
            }
            due = Math.min(due, r.nextDueMs);
        }
        if (next == null) {
            schedule(due - now);
            return;
        }
        long rate = rate(next);
        int size = emitChunk(next);
        idsAtThisWatermark += size;
        next.nextDueMs = rate > 0 ? now + Math.max(1, size * 1000L / rate) : now;
        idsSinceAdjust += size;
        if (adaptiveRate > 0) {
            nextGlobalDueMs = now + Math.max(1, Math.round(size * 1000.0 / adaptiveRate));
        }
        if (running.remove(next)) {
            running.addLast(next); // round robin: a slow campaign does not hold the others back
        }
        due = Long.MAX_VALUE;
        for (Running r : running) {
            due = Math.min(due, r.nextDueMs);
        }
        if (adaptiveRate > 0) {
            due = Math.max(due, nextGlobalDueMs);
        }
        schedule(Math.max(0, due - now));
    }

    /**
     * Ids per second for this campaign: its own {@code maxRate} and {@code
     * audience.max-ids-per-second}, the lower of those given; 0 for no limit.
     */
    private long rate(Running r) {
        Integer own = r.progress.request.maxRate;
        if (own == null) {
            return maxIdsPerSecond;
        }
        return maxIdsPerSecond > 0 ? Math.min(maxIdsPerSecond, own) : own;
    }

    /** Emits the next chunk of {@code r}, dropping it when done; returns the chunk's size. */
    private int emitChunk(Running r) {
        CampaignProgress p = r.progress;
        long rate = rate(r);
        // a limited campaign goes in chunks of a tenth of a second's worth, so it flows evenly
        int size = rate > 0 ? (int) Math.max(1, Math.min(chunkSize, rate / 10)) : chunkSize;
        if (adaptiveRate > 0) {
            // a twentieth of a second's worth at a time, so the adapted rate flows evenly
            size = (int) Math.max(1, Math.min(size, adaptiveRate / 20));
        }
        int[] next = r.audience.chunk(p.nextId, size);
        if (next.length > 0) {
            PushRequest request = p.request;
            if (!holdWatermark && inputWatermark >= request.ts) {
                request = request.withoutTarget();
                request.ts = inputWatermark + 1;
            }
            output.collect(
                    new StreamRecord<>(
                            AudienceChunk.of(request, next, p.chunksEmitted), request.ts));
            p.chunksEmitted++;
            p.idsEmitted += next.length;
            p.nextId = (next[next.length - 1] & 0xFFFFFFFFL) + 1;
            chunks.inc();
            ids.inc(next.length);
        }
        if (next.length < size || p.idsEmitted >= p.size) {
            running.remove(r);
            LOG.info(
                    "Campaign {} expanded: {} ids in {} chunks (waits for the watermark so far:"
                            + " {})",
                    p.request.msgId,
                    p.idsEmitted,
                    p.chunksEmitted,
                    watermarkWaits.getCount());
            forwardWatermark();
            forwardStatus();
        }
        return next.length;
    }

    /** The input watermark, held below the event time of every campaign still expanding. */
    private void forwardWatermark() {
        long w = inputWatermark;
        for (Running r : running) {
            if (holdWatermark) {
                w = Math.min(w, r.progress.request.ts - 1);
            }
        }
        if (w > outputWatermark) {
            outputWatermark = w;
            output.emitWatermark(new Watermark(w));
        }
    }

    /** A vendor whose fresh report says more is waiting than the bound, or null. */
    private String vendorBehind(long now) {
        if (maxVendorBacklog <= 0) {
            return null;
        }
        for (PacingStatus s : vendors.values()) {
            if (s.backlog > maxVendorBacklog && now - s.ts <= STATUS_FRESH_MS) {
                return s.vendor;
            }
        }
        return null;
    }

    private long heldBytes() {
        long n = 0;
        for (Running r : running) {
            n += r.progress.audience.length;
        }
        return n;
    }

    private long pendingIds() {
        long n = 0;
        for (Running r : running) {
            n += r.progress.size - r.progress.idsEmitted;
        }
        return n;
    }
}
