package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.dispatch.pacing.PacerFeedback;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.CampaignProgress;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingStatus;
import java.util.ArrayList;
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
    static final String REJECTED = CampaignStart.REJECTED;

    /** How often a paused expansion looks at the backlogs again. */
    static final long PAUSE_CHECK_MS = 100;

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
    private transient RunningCampaigns running;
    private transient ListState<CampaignProgress> checkpointed;

    /** The newest pacer report of each vendor, restored to every subtask (union). */
    private transient ListState<PacingStatus> reportsState;

    private transient long inputWatermark;
    private transient long outputWatermark;
    private transient StepTimer steps;
    private transient long idsAtThisWatermark;

    /** When the batch of this watermark filled up; {@code Long.MIN_VALUE} while it has room. */
    private transient long batchFullAt;

    private transient Counter watermarkWaits;
    private transient PacerFeedback feedback;
    private transient boolean inputIdle;
    private transient boolean outputIdle;
    private transient Counter campaigns;
    private transient Counter lists;
    private transient Counter rejected;
    private transient Counter chunks;
    private transient Counter ids;
    private transient Counter pausedMs;
    private transient long pausedSince;
    private transient StoreWaits waiting;
    private transient Counter storeFailures;

    /** Holding the watermark for each campaign, never pausing. */
    public CampaignExpander(Audiences.Factory factory, int chunkSize, long maxIdsPerSecond) {
        this(factory, chunkSize, maxIdsPerSecond, 0, true);
    }

    /** Without an adaptive rate. */
    public CampaignExpander(
            Audiences.Factory factory,
            int chunkSize,
            long maxIdsPerSecond,
            long maxVendorBacklog,
            boolean holdWatermark) {
        this(factory, chunkSize, maxIdsPerSecond, maxVendorBacklog, holdWatermark, 0);
    }

    /**
     * @param chunkSize ids per chunk
     * @param maxIdsPerSecond expansion rate limit per campaign stream, 0 for none
     * @param maxVendorBacklog expansion pauses while a vendor's pacer reports more waiting sends
     *     than this (input 2); 0 never pauses
     * @param holdWatermark true: a campaign is decided at its request's time, and the output
     *     watermark waits for its last chunk (replay's order; later pushes wait for the campaign);
     *     false: each chunk is decided when it is expanded (at the request's time or the input
     *     watermark, the later), and nothing waits for a campaign
     * @param targetDelayMs with {@code holdWatermark} false: the expansion rate adapts to keep the
     *     queue in front of the pacer under this (see {@link PacerFeedback}), so that realtime
     *     sends are not stuck behind a campaign; 0 turns it off
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

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        running = new RunningCampaigns();
        inputWatermark = Long.MIN_VALUE;
        outputWatermark = Long.MIN_VALUE;
        checkpointed =
                ctx.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "campaigns", TypeInformation.of(CampaignProgress.class)));
        running.restore(checkpointed.get());
        reportsState =
                ctx.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>(
                                        "pacerReports", TypeInformation.of(PacingStatus.class)));
        feedback =
                new PacerFeedback(
                        "Campaign expansion",
                        maxVendorBacklog,
                        holdWatermark ? 0 : targetDelayMs,
                        getMetricGroup().counter("expansionRateCuts"));
        if (!running.isEmpty()) {
            // resumed mid-campaign: not unlimited, not blind (see PacerFeedback#restored)
            feedback.restored(
                    reportsState.get(), getProcessingTimeService().getCurrentProcessingTime());
        }
        waiting = new StoreWaits(RETRY_FIRST_MS, RETRY_MAX_MS);
        waiting.initialize(ctx.getOperatorStateStore());
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
        lists = getMetricGroup().counter("listCampaigns");
        chunks = getMetricGroup().counter("audienceChunks");
        ids = getMetricGroup().counter("audienceIds");
        pausedMs = getMetricGroup().counter("expansionPausedMs");
        getMetricGroup().gauge("expansionPaused", () -> pausedSince > 0 ? 1 : 0);
        getMetricGroup().gauge("campaignsRunning", () -> running.size());
        getMetricGroup().gauge("campaignIdsPending", running::pendingIds);
        getMetricGroup().gauge("campaignsWaitingForStore", () -> waiting.size());
        storeFailures = getMetricGroup().counter("segmentStoreFailures");
        watermarkWaits = getMetricGroup().counter("expansionWatermarkWaits");
        batchFullAt = Long.MIN_VALUE;
        getMetricGroup().gauge("expansionRateLimit", () -> Math.round(feedback.rate()));
        steps = new StepTimer(getProcessingTimeService(), this::step);
        schedule(0);
        if (!waiting.isEmpty()) {
            waiting.scheduleRetry(getProcessingTimeService(), t -> retry());
        }
    }

    @Override
    public void setMailboxExecutor(MailboxExecutor mailbox) {
        this.mailbox = mailbox;
    }

    @Override
    public void processElement1(StreamRecord<ParsedRecord> element) throws Exception {
        while (mailbox != null
                && (running.heldBytes() >= MAX_HELD_BYTES || waiting.size() >= MAX_WAITING)) {
            mailbox.yield(); // expansion steps and store retries are mail: they run here
        }
        ParsedRecord in = element.getValue();
        // a list needs no store: it does not queue behind the campaigns waiting for one
        if (!CampaignStart.isList(in.request) && !waiting.isEmpty()) {
            waiting.add(in);
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
        CampaignStart start = CampaignStart.of(audiences, in, rejected.getCount());
        if (start.storeFailure() != null) {
            storeFailures.inc();
            waiting.failed(in, start.storeFailure(), waited);
            waiting.scheduleRetry(getProcessingTimeService(), time -> retry());
            return false;
        }
        if (start.rejected() != null) {
            reject(start.rejected());
            return true;
        }
        campaigns.inc();
        if (outputIdle) {
            outputIdle = false;
            output.emitWatermarkStatus(WatermarkStatus.ACTIVE);
        }
        PushRequest p = in.request;
        if (start.isList()) {
            lists.inc(); // lists may come by the thousand: not worth a line each
        } else {
            LOG.info("Campaign {} at {}: {}", p.msgId, p.ts, start.description());
        }
        CampaignProgress progress = start.progress();
        if (progress == null) {
            return true;
        }
        if (waited && progress.request.ts <= inputWatermark) {
            progress.request.ts = inputWatermark + 1;
        }
        feedback.backlogStarts(
                getProcessingTimeService().getCurrentProcessingTime(), inputWatermark);
        running.start(progress, start.audience());
        schedule(0);
        return true;
    }

    /** Asks the store again for the campaigns waiting on it, in order, until one fails. */
    private void retry() {
        while (!waiting.isEmpty()) {
            if (!expand(waiting.next(), true)) {
                return;
            }
        }
        waiting.answered();
        forwardStatus();
    }

    private void reject(DeadLetter dead) {
        rejected.inc();
        output.collect(DispatchTags.DEAD_LETTERS, new StreamRecord<>(dead));
    }

    /** A vendor's backlog and delay from the pacer (through push.pacing). */
    @Override
    public void processElement2(StreamRecord<PacingStatus> element) {
        feedback.report(
                element.getValue(),
                getProcessingTimeService().getCurrentProcessingTime(),
                inputWatermark,
                !running.isEmpty() && pausedSince == 0);
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
        for (ParsedRecord in : waiting.drain()) {
            reject(
                    DeadLetter.of(
                            in.source,
                            in.position,
                            "the segment store did not answer before the input ended",
                            Json.write(in.request)));
        }
        while (!running.isEmpty()) {
            emitChunk(running.first());
        }
        forwardWatermark();
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        checkpointed.update(running.snapshot());
        reportsState.update(new ArrayList<>(feedback.reports()));
        waiting.snapshot();
    }

    @Override
    public void close() throws Exception {
        if (audiences != null) {
            audiences.close();
        }
        super.close();
    }

    /** Runs the next step in {@code delayMs}, unless one is due sooner. */
    private void schedule(long delayMs) {
        if (!running.isEmpty()) {
            steps.in(delayMs);
        }
    }

    private void step() {
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
        String behind = feedback.vendorBehind(now);
        if (behind != null) {
            if (pausedSince == 0) {
                pausedSince = now;
                LOG.info("Campaign expansion paused: {}", feedback.status(behind));
            }
            schedule(PAUSE_CHECK_MS);
            return;
        }
        if (pausedSince > 0) {
            pausedMs.inc(now - pausedSince);
            LOG.info("Campaign expansion resumed after {} ms", now - pausedSince);
            pausedSince = 0;
        }
        if (now < feedback.nextDueMs()) {
            schedule(feedback.nextDueMs() - now);
            return;
        }
        RunningCampaigns.Campaign next = running.due(now);
        if (next == null) {
            schedule(running.earliestDueMs() - now);
            return;
        }
        long rate = next.rate(maxIdsPerSecond);
        int size = emitChunk(next);
        idsAtThisWatermark += size;
        next.nextDueMs = rate > 0 ? now + Math.max(1, size * 1000L / rate) : now;
        feedback.emitted(size, now);
        running.rotate(next);
        long due = Math.max(running.earliestDueMs(), feedback.nextDueMs());
        schedule(Math.max(0, due - now));
    }

    /** Emits the next chunk of {@code r}, dropping it when done; returns the chunk's size. */
    private int emitChunk(RunningCampaigns.Campaign r) {
        long rate = r.rate(maxIdsPerSecond);
        // a limited campaign goes in chunks of a tenth of a second's worth, so it flows evenly
        int size = rate > 0 ? (int) Math.max(1, Math.min(chunkSize, rate / 10)) : chunkSize;
        AudienceChunk next = r.next(feedback.chunkSize(size), stamped(r.progress.request));
        int n = next == null ? 0 : next.size();
        if (next != null) {
            output.collect(new StreamRecord<>(next, next.request.ts));
            chunks.inc();
            ids.inc(n);
        }
        if (r.done()) {
            finished(r);
        }
        return n;
    }

    /**
     * The request a chunk carries: without the hold, stamped at the input watermark when that has
     * passed the request's time, so the chunk is decided when it is expanded.
     */
    private PushRequest stamped(PushRequest request) {
        if (!holdWatermark && inputWatermark >= request.ts) {
            request = request.withoutTarget();
            request.ts = inputWatermark + 1;
        }
        return request;
    }

    private void finished(RunningCampaigns.Campaign r) {
        CampaignProgress p = r.progress;
        running.remove(r);
        // lists may come by the thousand: their ends are not worth a line each
        if (!p.isList() || LOG.isDebugEnabled()) {
            LOG.info(
                    "Campaign {} expanded: {} ids in {} chunks (waits for the watermark so far:"
                            + " {})",
                    p.request.msgId,
                    p.idsEmitted,
                    p.chunksEmitted,
                    watermarkWaits.getCount());
        }
        forwardWatermark();
        forwardStatus();
    }

    /** The input watermark, held below the event time of every campaign still expanding. */
    private void forwardWatermark() {
        long w = holdWatermark ? running.holdBelow(inputWatermark) : inputWatermark;
        if (w > outputWatermark) {
            outputWatermark = w;
            output.emitWatermark(new Watermark(w));
        }
    }
}
