package io.pushline.common;

import io.pushline.schema.ParsedRecord;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * Bounded out-of-orderness over the records' {@code ts}; after a quiet spell the watermark follows
 * the wall clock instead, so that the last requests before a pause are decided without waiting for
 * newer ones, and a quiet partition never holds the others back. Bad records (no event time) do not
 * move it.
 */
public final class IdleAdvancingWatermarks implements WatermarkGenerator<ParsedRecord> {
    private final long delay;
    private final long idleAfter;
    private long maxTs = Long.MIN_VALUE;
    private long lastInputAt;
    private long emitted = Long.MIN_VALUE;

    IdleAdvancingWatermarks(Duration outOfOrderness, Duration idleAdvance) {
        this.delay = outOfOrderness.toMillis();
        this.idleAfter = idleAdvance.toMillis();
        this.lastInputAt = System.currentTimeMillis();
    }

    public static WatermarkStrategy<ParsedRecord> strategy(
            Duration outOfOrderness, Duration idleAdvance) {
        return WatermarkStrategy.<ParsedRecord>forGenerator(
                        ctx -> new IdleAdvancingWatermarks(outOfOrderness, idleAdvance))
                .withTimestampAssigner((r, kafkaTs) -> r.timestamp());
    }

    @Override
    public void onEvent(ParsedRecord record, long ts, WatermarkOutput output) {
        if (ts != Long.MIN_VALUE) {
            maxTs = Math.max(maxTs, ts);
        }
        lastInputAt = System.currentTimeMillis();
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long wm = maxTs == Long.MIN_VALUE ? Long.MIN_VALUE : maxTs - delay - 1;
        long now = System.currentTimeMillis();
        if (idleAfter > 0 && now - lastInputAt >= idleAfter) {
            wm = Math.max(wm, now - delay - 1);
        }
        if (wm > emitted) {
            emitted = wm;
            output.emitWatermark(new Watermark(wm));
        }
    }
}
