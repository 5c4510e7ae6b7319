package io.pushline.common;

import io.pushline.schema.ParsedRecord;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.Clock;
import org.apache.flink.util.clock.RelativeClock;
import org.apache.flink.util.clock.SystemClock;
import org.apache.kafka.common.TopicPartition;

/**
 * Bounded out-of-orderness over the records' {@code ts}; after a quiet spell the watermark follows
 * the wall clock instead, so that the last requests before a pause are decided without waiting for
 * newer ones, and a quiet partition never holds the others back. Bad records (no event time) and
 * records stamped too far ahead of the wall clock do not move it.
 *
 * <p>Quiet is measured on the source's input activity clock, which stands still while the source is
 * backpressured: a partition that has data but cannot emit it is not idle, so its records do not
 * turn late behind a wall-clock watermark (seen with a million binds ahead of a campaign).
 *
 * <p>And quiet is not enough: a partition also has to be read to its log end ({@link LogEnds}). A
 * reader catching up on a backlog has fetch gaps longer than any sensible idle time, and a
 * wall-clock watermark there would turn the rest of the backlog late (849,463 of a million campaign
 * decisions {@code no_device} in {@code bench audience}). The broker verifies it ({@link
 * BrokerLogEnds}): nothing committed after the last record this split emitted, as of a check at
 * time T; the watermark then follows T, not the wall clock of the moment, so a record written after
 * the check cannot be behind it (by more than its own delivery delay). A split that has not emitted
 * a record yet cannot tell which partition it reads (Flink makes its generator when the split is
 * assigned, before any record, and tells it nothing about the split): it advances only once every
 * partition of its reader without a record is verified at its end from where it started ({@link
 * ReaderSplits}, filled by {@link SplitTrackingSource}).
 */
public final class IdleAdvancingWatermarks implements WatermarkGenerator<ParsedRecord> {
    private final long delay;
    private final long idleAfter;
    private final RelativeClock activity;
    private final Clock wall;
    private final long maxFuture;
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(IdleAdvancingWatermarks.class);
    private static final long WARN_AFTER_MS = 30_000;

    /**
     * Wall-clock time beyond activity time between two periodic emits that counts as a pause long
     * enough to make the lag stale (a restore's downstream tasks still loading, a stalled sink).
     * Shorter, intermittent backpressure does not restart the quiet, or a quiet partition of a busy
     * source would never follow the wall clock again.
     */
    static final long PAUSE_MS = 500;

    private long lastEmitWall = Long.MIN_VALUE;
    private long lastEmitActivity;

    private final LogEnds ends;
    private long waitingSince = Long.MIN_VALUE;
    private long warnedAt = Long.MIN_VALUE / 2;
    private final ReaderSplits splits;

    /**
     * The generator of the reader's own output, which the Kafka reader never emits through. Flink
     * passes that output's watermarks downstream directly, not as the least of the splits' (as it
     * does for the splits' outputs), so a wall-clock watermark there would overtake every split's
     * backlog: it emits nothing. (Until 2026-11-28 it followed the wall clock like a quiet split;
     * `bench chaos` run 13 lost 306 realtime pushes to it after restores.)
     */
    private final boolean readerOutput;

    private String topic;
    private int partition = -1;

    /** The offset after the last record of the split's partition, or -1. */
    private long next = -1;

    private long maxTs = Long.MIN_VALUE;
    private long lastInputAt;
    private long emitted = Long.MIN_VALUE;

    /**
     * When this generator was made (wall clock): a check of the log from before then counts for
     * nothing. It is a true statement about the log, but the log may have been another one (a topic
     * deleted and made again with the same name, as tests do) and records written right before a
     * job starts may carry any time (a replay, a test's fixed clock); waiting for one check of this
     * generator's own costs 50 ms once.
     */
    private final long createdWall;

    /** Records behind the watermark since the last log line, and the most behind. */
    private long lateRecords;

    private long lateMost;
    private long lateLoggedAt = Long.MIN_VALUE / 2;

    IdleAdvancingWatermarks(
            Duration outOfOrderness, Duration idleAdvance, RelativeClock activity, Clock wall) {
        this(outOfOrderness, idleAdvance, Duration.ZERO, activity, wall);
    }

    /**
     * @param maxFuture a time more than this ahead of the wall clock does not move the watermark
     *     (the record is a dead letter downstream; one record stamped 2036 would otherwise make
     *     every later one late and release every scheduled request at once); 0: no such check
     */
    IdleAdvancingWatermarks(
            Duration outOfOrderness,
            Duration idleAdvance,
            Duration maxFuture,
            RelativeClock activity,
            Clock wall) {
        this(
                outOfOrderness,
                idleAdvance,
                maxFuture,
                activity,
                wall,
                LogEnds.ALWAYS,
                new ReaderSplits(),
                false);
    }

    /**
     * @param ends whether a partition is read to its end; a quiet partition that is not does not
     *     advance
     * @param splits the partitions of this split's reader, for a split that has not emitted a
     *     record yet
     * @param readerOutput the generator of the reader's own output (see {@link
     *     ReaderSplits#firstGenerator}), which never follows the wall clock
     */
    IdleAdvancingWatermarks(
            Duration outOfOrderness,
            Duration idleAdvance,
            Duration maxFuture,
            RelativeClock activity,
            Clock wall,
            LogEnds ends,
            ReaderSplits splits,
            boolean readerOutput) {
        this.readerOutput = readerOutput;
        this.ends = ends;
        this.splits = splits;
        this.maxFuture = maxFuture.toMillis();
        this.delay = outOfOrderness.toMillis();
        this.idleAfter = idleAdvance.toMillis();
        this.activity = activity;
        this.wall = wall;
        this.lastInputAt = activity.relativeTimeMillis();
        this.createdWall = wall.absoluteTimeMillis();
    }

    /**
     * For Kafka input read through a {@link SplitTrackingSource} from the cluster of {@code ends}
     * ({@link BrokerLogEnds#of}): quiet partitions advance once read to their end.
     */
    public static WatermarkStrategy<ParsedRecord> strategy(
            Duration outOfOrderness, Duration idleAdvance, Duration maxFuture, LogEnds ends) {
        return WatermarkStrategy.<ParsedRecord>forGenerator(
                        ctx -> {
                            ReaderSplits splits = ReaderSplits.of(ctx.getMetricGroup());
                            return new IdleAdvancingWatermarks(
                                    outOfOrderness,
                                    idleAdvance,
                                    maxFuture,
                                    ctx.getInputActivityClock(),
                                    SystemClock.getInstance(),
                                    ends,
                                    splits,
                                    splits.firstGenerator());
                        })
                .withTimestampAssigner((r, kafkaTs) -> r.timestamp());
    }

    @Override
    public void onEvent(ParsedRecord record, long ts, WatermarkOutput output) {
        if (ts != Long.MIN_VALUE
                && (maxFuture <= 0 || ts <= wall.absoluteTimeMillis() + maxFuture)) {
            maxTs = Math.max(maxTs, ts);
            if (ts <= emitted) {
                lateRecord(record, ts);
            }
        }
        lastInputAt = activity.relativeTimeMillis();
        int p = partitionOf(record.position);
        long offset = offsetOf(record.position);
        if (p >= 0 && offset >= 0 && record.source != null) {
            if (topic == null) {
                splits.firstRecord(new TopicPartition(record.source, p));
            }
            topic = record.source;
            partition = p;
            next = offset + 1;
        }
    }

    /**
     * A record behind the watermark this split already emitted: its partition followed the wall
     * clock while the record was still on its way (its delivery took longer than {@code
     * dispatch.max-out-of-orderness}). It is decided at once, out of time order. Counted and logged
     * at most once a minute per split, with the largest lag seen, so the allowed disorder can be
     * set from what the input really does.
     */
    private void lateRecord(ParsedRecord record, long ts) {
        lateRecords++;
        lateMost = Math.max(lateMost, emitted - ts);
        long now = activity.relativeTimeMillis();
        if (now - lateLoggedAt >= 60_000) {
            lateLoggedAt = now;
            LOG.info(
                    "{} record(s) of {} arrived behind the watermark in the last minute, up to {} ms;"
                            + " the last at {} ({} ms behind). Raise dispatch.max-out-of-orderness"
                            + " if that is more than the input's usual delay",
                    lateRecords,
                    record.source + "/" + partitionOf(record.position),
                    lateMost,
                    record.position,
                    emitted - ts);
            lateRecords = 0;
            lateMost = 0;
        }
    }

    /** The partition of a Kafka position ({@code partition-offset}), or -1. */
    static int partitionOf(String position) {
        return (int) part(position, true);
    }

    /** The offset of a Kafka position ({@code partition-offset}), or -1. */
    static long offsetOf(String position) {
        return part(position, false);
    }

    private static long part(String position, boolean partition) {
        int dash = position == null ? -1 : position.indexOf('-');
        if (dash <= 0 || dash == position.length() - 1) {
            return -1;
        }
        try {
            return partition
                    ? Integer.parseInt(position, 0, dash, 10)
                    : Long.parseLong(position, dash + 1, position.length(), 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Until when (wall-clock ms) the split is known to have emitted everything committed in its
     * partition, or {@link Long#MIN_VALUE}.
     */
    private long readToTheEnd(long wallNow) {
        long verifiedAt =
                topic != null ? ends.endVerifiedAt(topic, partition, next) : startsVerifiedAt();
        if (verifiedAt < createdWall) {
            verifiedAt = Long.MIN_VALUE;
        }
        boolean atEnd = verifiedAt != Long.MIN_VALUE;
        long now = activity.relativeTimeMillis();
        if (atEnd) {
            waitingSince = Long.MIN_VALUE;
        } else if (waitingSince == Long.MIN_VALUE) {
            waitingSince = now;
        } else if (now - waitingSince >= WARN_AFTER_MS && now - warnedAt >= WARN_AFTER_MS) {
            warnedAt = now;
            LOG.info(
                    "Quiet for {} ms but not read to the log end, so the watermark does not follow"
                            + " the wall clock: partition {}, lags {}",
                    now - waitingSince,
                    topic == null
                            ? "(no record yet; the reader's without one: "
                                    + splits.withoutRecords()
                                    + ")"
                            : topic + "/" + partition,
                    ends.describe());
        }
        return Math.min(verifiedAt, wallNow);
    }

    /**
     * For a split without a record: when every partition of its reader without one (its own among
     * them) was last verified at its end from where it started, or {@link Long#MIN_VALUE}. What
     * this split emits is then combined with the other splits' watermarks as the least of them, so
     * the partitions that have emitted records answer for themselves.
     */
    private long startsVerifiedAt() {
        if (ends == LogEnds.ALWAYS) {
            return Long.MAX_VALUE;
        }
        if (!splits.isTracked()) {
            return Long.MIN_VALUE; // not read through SplitTrackingSource: its splits are unknown
        }
        Map<TopicPartition, Long> pending = splits.withoutRecords();
        long at = Long.MAX_VALUE;
        for (Map.Entry<TopicPartition, Long> e : pending.entrySet()) {
            TopicPartition tp = e.getKey();
            at = Math.min(at, ends.endVerifiedAt(tp.topic(), tp.partition(), e.getValue()));
        }
        // none pending: this is no split's generator (its own split would be pending)
        return pending.isEmpty() ? Long.MIN_VALUE : at;
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        if (readerOutput) {
            return;
        }
        long wm = maxTs == Long.MIN_VALUE ? Long.MIN_VALUE : maxTs - delay - 1;
        long now = activity.relativeTimeMillis();
        long wallNow = wall.absoluteTimeMillis();
        if (lastEmitWall != Long.MIN_VALUE
                && (wallNow - lastEmitWall) - (now - lastEmitActivity) > PAUSE_MS) {
            // The activity clock stood still: backpressure. The source's fetcher was blocked
            // meanwhile, so the consumer's lag is as old as the pause: quiet starts again.
            lastInputAt = now;
        }
        lastEmitWall = wallNow;
        lastEmitActivity = now;
        if (idleAfter > 0 && now - lastInputAt >= idleAfter) {
            long atEndUntil = readToTheEnd(wallNow);
            if (atEndUntil != Long.MIN_VALUE) {
                wm = Math.max(wm, atEndUntil - delay - 1);
            }
        }
        if (wm > emitted) {
            emitted = wm;
            output.emitWatermark(new Watermark(wm));
        }
    }
}
