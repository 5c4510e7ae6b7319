package io.pushline.dispatch.pacing;

import io.pushline.schema.pacing.PacingStatus;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a stage that feeds a backlog into the dispatch path (the campaign expander, the reminder
 * pacer) learns from the pacers' reports (through {@code push.pacing}): whether a vendor's backlog
 * asks it to pause, and, with a target delay, how fast it may emit ids.
 *
 * <p>The rate is congestion control. The pacer reports how far event time has come through the
 * stages before it (its watermark); the gap to the event time of the expander is what those stages
 * hold, the queue that realtime sends wait behind. Over the last second of reports the stage knows
 * what it sent and how the queue (in time) grew, hence what the stages absorb. While the queue
 * exceeds the target the rate is set to that capacity less what drains the excess within a second;
 * while it does not, the rate grows by a quarter per report until a queue first shows and by a
 * twentieth after it, and never stays under nine tenths of the capacity last seen. So a campaign
 * starts slowly, finds what the stages absorb within seconds, and then stays near it.
 *
 * <p>Reports reach the stage through one of its own inputs, and Flink reads no input of a task
 * whose output is backpressured: the very congestion a report tells of holds it back. So a late
 * report is news too. A report that a vendor is behind stands until a newer one of that vendor, for
 * up to a minute (trusting only fresh ones, one chaos run's expander never paused and left 90,000
 * sends a vendor in the pacers against a bound of 20,000); a report that arrives late cuts the
 * rate; and once reports have come, a silence is not a reason to speed up for ten seconds. Only a
 * stage that has never had a report grows its rate blind, so that pacers with nothing sent yet
 * (they report only the vendors they have sent to) do not hold a campaign back.
 */
public final class PacerFeedback {
    private static final Logger LOG = LoggerFactory.getLogger(PacerFeedback.class);

    /**
     * The least lag seen over the last minute, in six buckets of ten seconds (so an old minimum
     * leaves within ten seconds of its minute): the lag the stages have without a queue.
     */
    static final class BaseDelay {
        static final long BUCKET_MS = 10_000;
        static final int BUCKETS = 6;
        private final long[] min = new long[BUCKETS];
        private final long[] bucket = new long[BUCKETS];

        BaseDelay() {
            Arrays.fill(bucket, Long.MIN_VALUE);
        }

        void add(long lag, long now) {
            long b = Math.floorDiv(now, BUCKET_MS);
            int i = (int) Math.floorMod(b, BUCKETS);
            if (bucket[i] != b) {
                bucket[i] = b;
                min[i] = lag;
            } else {
                min[i] = Math.min(min[i], lag);
            }
        }

        /** The least lag of the last minute; 0 when none was seen in it. */
        long min(long now) {
            long b = Math.floorDiv(now, BUCKET_MS);
            long out = Long.MAX_VALUE;
            for (int i = 0; i < BUCKETS; i++) {
                if (bucket[i] > b - BUCKETS) {
                    out = Math.min(out, min[i]);
                }
            }
            return out == Long.MAX_VALUE ? 0 : out;
        }
    }

    /**
     * How many of the latest lags (one a report, five a second) the current lag is the median of.
     */
    static final int CURRENT_FILTER = 5;

    /**
     * A report that a vendor is behind stands this long unless a newer report of the vendor came
     * (the pacer may be gone: then the stage does not wait for ever).
     */
    static final long BEHIND_HOLDS_MS = 60_000;

    /** After a report, a silence this long lets the rate grow blind (the pacer may be gone). */
    static final long BLIND_AFTER_MS = 10_000;

    /** The adaptive rate is changed at most this often (the pacer reports every 200 ms). */
    static final long ADJUST_EVERY_MS = 200;

    /** How much of the queue beyond the target a rate set now drains per second. */
    static final double DRAIN_PER_SECOND = 1.0;

    /** The capacity is estimated over this many reports (about a second). */
    static final int CAPACITY_WINDOW = 5;

    /** A pacer report older than this says nothing about congestion now, except that it is late. */
    static final long LAG_FRESH_MS = 1_000;

    /** The adaptive rate never goes below this, so a campaign always moves. */
    static final double MIN_ADAPTIVE_RATE = 1_000;

    /** Growing blind past this, the rate is dropped: backpressure alone limits the campaign. */
    static final double MAX_BLIND_RATE = 1_000_000;

    /** Where the adaptive rate starts when a campaign starts with nothing learned yet. */
    static final double INITIAL_ADAPTIVE_RATE = 5_000;

    private final String stage;
    private final long maxVendorBacklog;
    private final long targetDelayMs;
    private final Counter rateCuts;
    private final Map<String, PacingStatus> vendors = new HashMap<>();
    private final BaseDelay base = new BaseDelay();

    /** The last reports' lags, for the current one (as LEDBAT filters the current delay). */
    private final long[] recent = new long[CURRENT_FILTER];

    private int recentCount;

    /** Ids per second for all campaigns together, learned from the reports; 0: none. */
    private double rate;

    /** Until the first cut the rate grows fast; after it, gently (as TCP after slow start). */
    private boolean slowStart;

    private long nextDueMs;

    /** Ids emitted since the start, and the last reports' times, queues and totals. */
    private long idsTotal;

    private final long[] windowAt = new long[CAPACITY_WINDOW];
    private final long[] windowQueued = new long[CAPACITY_WINDOW];
    private final long[] windowIds = new long[CAPACITY_WINDOW];
    private int windowCount;

    /** What the stages absorb, ids a second, as last estimated; 0: not known. */
    private double capacity;

    private long lastAdjustMs;
    private long idsSinceAdjust;
    private long lastSlowLogMs;

    /** When a report last told a lag (processing time); 0: never. */
    private long lastReportMs;

    /**
     * @param stage what is slowed, for the log ("Campaign expansion")
     * @param maxVendorBacklog pause while a vendor reports more waiting sends than this; 0 never
     * @param targetDelayMs the queue in front of the pacer the rate aims at; 0: no adaptive rate
     */
    public PacerFeedback(
            String stage, long maxVendorBacklog, long targetDelayMs, Counter rateCuts) {
        this.stage = stage;
        this.maxVendorBacklog = maxVendorBacklog;
        this.targetDelayMs = targetDelayMs;
        this.rateCuts = rateCuts;
    }

    /** The adaptive rate in ids per second, 0 while none applies. */
    public double rate() {
        return rate;
    }

    public PacingStatus status(String vendor) {
        return vendors.get(vendor);
    }

    /**
     * A report from a vendor's pacer.
     *
     * @param expanding whether a campaign is being expanded now (else the report says nothing about
     *     the rate)
     */
    public void report(PacingStatus s, long now, long inputWatermark, boolean expanding) {
        PacingStatus before = vendors.get(s.vendor);
        if (before == null || s.ts >= before.ts) {
            vendors.put(s.vendor, s);
        }
        boolean late = now - s.ts > LAG_FRESH_MS;
        if (s.watermark > 0) {
            lastReportMs = now;
        }
        if (targetDelayMs <= 0 || now - lastAdjustMs < ADJUST_EVERY_MS) {
            return;
        }
        long elapsed = now - lastAdjustMs;
        long emitted = idsSinceAdjust;
        lastAdjustMs = now;
        idsSinceAdjust = 0;
        long lag = queueingMs(now, inputWatermark);
        if (lag == Long.MIN_VALUE) {
            if (late && expanding && s.watermark > 0) {
                cutForLateReport(now, now - s.ts);
            } else {
                growBlind();
            }
            return;
        }
        recent[recentCount++ % recent.length] = lag;
        // The lag jitters by more than the target (watermark steps, checkpoints, both ways), so
        // the current lag is the median of the last reports, and the base, the least of those
        // medians in the last minute (see BaseDelay): what a campaign queued is the difference.
        long[] last = Arrays.copyOf(recent, Math.min(recentCount, recent.length));
        Arrays.sort(last);
        long current = last[last.length / 2];
        base.add(current, now);
        long queued = current - base.min(now);
        if (!expanding) {
            return;
        }
        idsTotal += emitted;
        // the raw lag: the median trails a growing queue, and what went out is not delayed
        long rawQueued = lag - base.min(now);
        double absorbed = capacity(now, rawQueued, queued);
        if (rawQueued > targetDelayMs) {
            // a queue shows: stop doubling before the median says so (it trails by two reports,
            // and a quarter more a report overshot by a second's worth in a model)
            slowStart = false;
        }
        if (queued > targetDelayMs) {
            slowStart = false;
            // From what the stages absorb, less what drains the excess: a cut by a fixed share
            // of the rate kept cutting while the queue drained (it stays above the target for a
            // while) and ended at the floor; from the rate alone it did not know how far to go.
            double excess = (queued - targetDelayMs) / 1000.0;
            rate =
                    absorbed > 0
                            ? Math.max(
                                    MIN_ADAPTIVE_RATE,
                                    absorbed * Math.max(0.25, 1 - excess * DRAIN_PER_SECOND))
                            : Math.max(MIN_ADAPTIVE_RATE, rate * 2 / 3);
            slowed(
                    now,
                    String.format(
                            "the pacer's event time trailed this stage's by a median %d ms over"
                                    + " the last %d reports, %d ms more than the least such median"
                                    + " of the last minute (target %d ms)",
                            current, CURRENT_FILTER, queued, targetDelayMs));
        } else if (rate > 0) {
            // grows only while it is what limits: at most twice the rate achieved; back to what
            // the stages were seen to absorb at once
            double achieved = emitted * 1000.0 / Math.max(1, elapsed);
            double growth = slowStart ? 1.25 : 1.05;
            rate = Math.max(Math.min(rate * growth, Math.max(2 * achieved, rate)), absorbed * 0.9);
        }
    }

    /**
     * A backlog starts (a campaign, a fired task, slots due together): with nothing learned yet,
     * the rate starts slowly.
     */
    public void backlogStarts(long now, long inputWatermark) {
        if (rate == 0 && targetDelayMs > 0) {
            // Even with nothing known (a fresh job: a pacer reports only the vendors it has
            // sent to), a campaign starts slowly: unlimited, a 30,000-uid list filled the stages
            // at once and the first realtime pushes after it waited 2-3 s.
            rate = INITIAL_ADAPTIVE_RATE;
            slowStart = true;
        }
    }

    /**
     * The newest report of each vendor, for the checkpoint: the pacers' queues are restored too.
     */
    public java.util.Collection<PacingStatus> reports() {
        return vendors.values();
    }

    /**
     * The stage was restored with a backlog under way and these reports from before the failure.
     * The pacers' queues were restored from the same checkpoint, so a restored report that a vendor
     * is behind stands as it would have (until a newer one or {@link #BEHIND_HOLDS_MS}); the rate
     * starts where a new backlog's does, and a silence counts from now: reports reach a restored
     * stage late (they are read again from the checkpoint's offsets, behind whatever its inputs
     * replay), and blind growth from the restore flooded the pacers with 38,000 sends a vendor
     * within 40 s of one chaos run's upgrade (bound 20,000), holding realtime sends behind them for
     * as long.
     */
    public void restored(Iterable<PacingStatus> reports, long now) {
        for (PacingStatus s : reports) {
            PacingStatus before = vendors.get(s.vendor);
            if (before == null || s.ts >= before.ts) {
                vendors.put(s.vendor, s);
            }
        }
        lastReportMs = now;
        if (rate == 0 && targetDelayMs > 0) {
            rate = INITIAL_ADAPTIVE_RATE;
            slowStart = true;
        }
    }

    /**
     * What the stages between here and the pacer absorb, in ids a second, from the last second of
     * reports while they held a queue: what went out, less what the queue grew by (the queue in
     * time at the absorbed rate: a queue growing by g ms a second means {@code out = absorbed x (1
     * + g / 1000)}); 0 while unknown. The last estimate stays until the next queue.
     */
    private double capacity(long now, long rawQueued, long queued) {
        int i = windowCount++ % CAPACITY_WINDOW;
        windowAt[i] = now;
        windowQueued[i] = rawQueued;
        windowIds[i] = idsTotal;
        if (windowCount < CAPACITY_WINDOW || queued <= targetDelayMs / 2) {
            return capacity;
        }
        int first = windowCount % CAPACITY_WINDOW; // the oldest of the window
        long span = now - windowAt[first];
        if (span <= 0) {
            return capacity;
        }
        double out = (idsTotal - windowIds[first]) * 1000.0 / span;
        double growth = (rawQueued - windowQueued[first]) * 1000.0 / span; // ms per second
        capacity = out / Math.max(0.2, 1 + growth / 1000.0);
        return capacity;
    }

    /**
     * A report came {@code lateMs} after it was made: this stage's input waited, because its output
     * is backpressured. A third less, or back to a rate when there was none.
     */
    private void cutForLateReport(long now, long lateMs) {
        slowStart = false;
        rate =
                rate > 0
                        ? Math.max(MIN_ADAPTIVE_RATE, rate * 2 / 3)
                        : Math.max(
                                MIN_ADAPTIVE_RATE,
                                capacity > 0 ? capacity * 0.9 : INITIAL_ADAPTIVE_RATE);
        slowed(
                now,
                "a pacer report reached it "
                        + lateMs
                        + " ms after it was made (its output is backpressured)");
    }

    /** Counts a cut of the rate and says why, at most every 10 s. */
    private void slowed(long now, String why) {
        rateCuts.inc();
        if (now - lastSlowLogMs >= 10_000) {
            lastSlowLogMs = now;
            LOG.info("{} slowed to {} ids/s: {}", stage, Math.round(rate), why);
        }
    }

    /** Without a lag to go by: a quarter more, as in slow start (no limit once past the cap). */
    private void growBlind() {
        if (rate > 0) {
            rate = rate * 1.25 > MAX_BLIND_RATE ? 0 : rate * 1.25;
        }
    }

    /** {@code size} ids went out at {@code now}: the next chunk is due when the rate allows. */
    public void emitted(int size, long now) {
        if (rate > 0
                && now - lastAdjustMs >= ADJUST_EVERY_MS
                && (lastReportMs == 0 || now - lastReportMs > BLIND_AFTER_MS)) {
            // no report says anything: grow as in slow start, so pacers that never reported
            // (nothing sent yet) leave the campaign to backpressure within seconds; after
            // reports, a silence is more likely this stage's own blocked input
            lastAdjustMs = now;
            idsSinceAdjust = 0;
            growBlind();
        }
        idsSinceAdjust += size;
        if (rate > 0) {
            nextDueMs = now + Math.max(1, Math.round(size * 1000.0 / rate));
        }
    }

    /** When the adaptive rate allows the next chunk; {@code Long.MIN_VALUE} without one. */
    public long nextDueMs() {
        return rate > 0 ? nextDueMs : Long.MIN_VALUE;
    }

    /** A chunk of at most a twentieth of a second's worth, so the adapted rate flows evenly. */
    public int chunkSize(int size) {
        return rate > 0 ? (int) Math.max(1, Math.min(size, rate / 20)) : size;
    }

    /**
     * How far the pacers' event time trailed the expander's, from the freshest report of each
     * vendor (the slowest vendor counts); {@code Long.MIN_VALUE} without fresh reports.
     */
    private long queueingMs(long now, long inputWatermark) {
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

    /**
     * A vendor whose latest report says more is waiting than the bound (see {@link
     * #BEHIND_HOLDS_MS}), or null.
     */
    public String vendorBehind(long now) {
        if (maxVendorBacklog <= 0) {
            return null;
        }
        for (PacingStatus s : vendors.values()) {
            if (s.backlog > maxVendorBacklog && now - s.ts <= BEHIND_HOLDS_MS) {
                return s.vendor;
            }
        }
        return null;
    }
}
