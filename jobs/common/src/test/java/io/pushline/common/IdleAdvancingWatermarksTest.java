package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.util.clock.ManualClock;
import org.junit.jupiter.api.Test;

class IdleAdvancingWatermarksTest {
    static final long WALL = 1_795_000_000_000L;
    static final long TS = 1_767_225_600_000L;

    private final ManualClock activity = new ManualClock(0);
    private final ManualClock wall = new ManualClock(WALL * 1_000_000);
    private final List<Long> emitted = new ArrayList<>();
    private final WatermarkOutput out =
            new WatermarkOutput() {
                @Override
                public void emitWatermark(Watermark w) {
                    emitted.add(w.getTimestamp());
                }

                @Override
                public void markIdle() {}

                @Override
                public void markActive() {}
            };
    private final IdleAdvancingWatermarks gen =
            new IdleAdvancingWatermarks(
                    Duration.ofSeconds(2), Duration.ofSeconds(5), activity, wall);

    private void event(long ts) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        gen.onEvent(ParsedRecord.of(p), ts, out);
    }

    @Test
    void followsTheRecordsMinusTheOutOfOrderness() {
        event(TS);
        gen.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(TS - 2_001);
    }

    @Test
    void followsTheWallClockAfterTheInputWasQuietLongEnough() {
        event(TS);
        activity.advanceTime(Duration.ofSeconds(5));
        wall.advanceTime(Duration.ofSeconds(5));
        gen.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(WALL + 5_000 - 2_001);
    }

    @Test
    void aBackpressuredSourceIsNotIdleHoweverLongTheWallClockRuns() {
        event(TS);
        // Backpressure: the activity clock stands still while the wall clock runs on.
        wall.advanceTime(Duration.ofMinutes(3));
        gen.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(TS - 2_001);
    }

    /** One record stamped years ahead must not make every later record late. */
    @Test
    void aRecordFarAheadOfTheWallClockDoesNotMoveTheWatermark() {
        IdleAdvancingWatermarks checked =
                new IdleAdvancingWatermarks(
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(5),
                        Duration.ofHours(1),
                        activity,
                        wall);
        PushRequest p = new PushRequest();
        checked.onEvent(ParsedRecord.of(p), WALL + Duration.ofDays(3650).toMillis(), out);
        checked.onEvent(ParsedRecord.of(p), Long.MAX_VALUE, out);
        checked.onEvent(ParsedRecord.of(p), WALL + 1_000, out);
        checked.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(WALL + 1_000 - 2_001);
    }
}
