package io.pushline.common;

import io.pushline.schema.ParsedRecord;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.Clock;
import org.apache.flink.util.clock.RelativeClock;
import org.apache.flink.util.clock.SystemClock;

/**
 * Bounded out-of-orderness over the records' {@code ts}; after a quiet spell the watermark follows
 * the wall clock instead, so that the last requests before a pause are decided without waiting for
 * newer ones, and a quiet partition never holds the others back. Bad records (no event time) and
 * records stamped too far ahead of the wall clock do not move it.
 *
 * <p>Quiet is measured on the source's input activity clock, which stands still while the source is
 * backpressured: a partition that has data but cannot emit it is not idle, so its records do not
 * turn late behind a wall-clock watermark (seen with a million binds ahead of a campaign).
 */
public final class IdleAdvancingWatermarks implements WatermarkGenerator<ParsedRecord> {
    private final long delay;
    private final long idleAfter;
    private final RelativeClock activity;
    private final Clock wall;
    private final long maxFuture;
    private long maxTs = Long.MIN_VALUE;
    private long lastInputAt;
    private long emitted = Long.MIN_VALUE;

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
        this.maxFuture = maxFuture.toMillis();
        this.delay = outOfOrderness.toMillis();
        this.idleAfter = idleAdvance.toMillis();
        this.activity = activity;
        this.wall = wall;
        this.lastInputAt = activity.relativeTimeMillis();
    }

    public static WatermarkStrategy<ParsedRecord> strategy(
            Duration outOfOrderness, Duration idleAdvance, Duration maxFuture) {
        return WatermarkStrategy.<ParsedRecord>forGenerator(
                        ctx ->
                                new IdleAdvancingWatermarks(
                                        outOfOrderness,
                                        idleAdvance,
                                        maxFuture,
                                        ctx.getInputActivityClock(),
                                        SystemClock.getInstance()))
                .withTimestampAssigner((r, kafkaTs) -> r.timestamp());
    }

    @Override
    public void onEvent(ParsedRecord record, long ts, WatermarkOutput output) {
        if (ts != Long.MIN_VALUE
                && (maxFuture <= 0 || ts <= wall.absoluteTimeMillis() + maxFuture)) {
            maxTs = Math.max(maxTs, ts);
        }
        lastInputAt = activity.relativeTimeMillis();
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long wm = maxTs == Long.MIN_VALUE ? Long.MIN_VALUE : maxTs - delay - 1;
        if (idleAfter > 0 && activity.relativeTimeMillis() - lastInputAt >= idleAfter) {
            wm = Math.max(wm, wall.absoluteTimeMillis() - delay - 1);
        }
        if (wm > emitted) {
            emitted = wm;
            output.emitWatermark(new Watermark(wm));
        }
    }
}
