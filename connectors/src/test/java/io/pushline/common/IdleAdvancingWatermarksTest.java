package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.util.clock.ManualClock;
import org.apache.kafka.common.TopicPartition;
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

    /** A partition whose reader is still behind its log end: quiet is a fetch gap, not idleness. */
    @Test
    void aQuietPartitionThatIsNotReadToItsEndDoesNotFollowTheWallClock() {
        Map<String, Boolean> caughtUp = new HashMap<>();
        IdleAdvancingWatermarks lagAware = lagAware(caughtUp);
        PushRequest p = new PushRequest();
        p.ts = TS;
        lagAware.onEvent(ParsedRecord.of(p).from("device.events", "1-41"), TS, out);
        caughtUp.put("device.events/1", false);
        activity.advanceTime(Duration.ofSeconds(30));
        wall.advanceTime(Duration.ofSeconds(30));
        lagAware.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(TS - 2_001);

        caughtUp.put("device.events/1", true);
        lagAware.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(TS - 2_001, WALL + 30_000 - 2_001);
    }

    /**
     * Before its first record a split cannot tell its partition: every partition of its reader
     * without a record must be verified at its end from where it started.
     */
    @Test
    void aSplitWithoutARecordWaitsUntilEveryPartitionOfItsReaderWithoutOneIsAtItsEnd() {
        IdleAdvancingWatermarks first = lagAware(new HashMap<>());
        splits.added(Map.of(DEVICES_0, 40L, REQUESTS_1, KafkaPartitionSplit.COMMITTED_OFFSET));
        activity.advanceTime(Duration.ofSeconds(6));
        wall.advanceTime(Duration.ofSeconds(6));
        checks.put("device.events/0@40", WALL + 5_900);
        first.onPeriodicEmit(out);
        assertThat(emitted).as("push.requests/1 not verified yet").isEmpty();

        checks.put("push.requests/1@-3", WALL + 5_950);
        first.onPeriodicEmit(out);
        assertThat(emitted)
                .as("the earlier of the two checks")
                .containsExactly(WALL + 5_900 - 2_001);
    }

    /**
     * A check from before the generator was made says nothing about its reader (the topic may have
     * been made again since, and records written just before the start may carry any time).
     */
    @Test
    void aCheckFromBeforeTheGeneratorWasMadeDoesNotCount() {
        IdleAdvancingWatermarks fresh = lagAware(new HashMap<>());
        splits.added(Map.of(DEVICES_0, KafkaPartitionSplit.EARLIEST_OFFSET));
        checks.put("device.events/0@-2", WALL - 1);
        activity.advanceTime(Duration.ofSeconds(6));
        wall.advanceTime(Duration.ofSeconds(6));
        fresh.onPeriodicEmit(out);
        assertThat(emitted).isEmpty();

        checks.put("device.events/0@-2", WALL + 5_000);
        fresh.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(WALL + 5_000 - 2_001);
    }

    /** A partition that emitted a record answers for itself: the others no longer wait for it. */
    @Test
    void aPartitionThatEmittedARecordNoLongerHoldsTheSplitsWithoutOne() {
        IdleAdvancingWatermarks quiet = lagAware(new HashMap<>());
        IdleAdvancingWatermarks busy = lagAware(new HashMap<>());
        splits.added(Map.of(DEVICES_0, 40L, REQUESTS_1, 7L));
        checks.put("device.events/0@40", WALL + 5_900);
        PushRequest p = new PushRequest();
        busy.onEvent(ParsedRecord.of(p).from("push.requests", "1-7"), TS, out);
        activity.advanceTime(Duration.ofSeconds(6));
        wall.advanceTime(Duration.ofSeconds(6));
        quiet.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(WALL + 5_900 - 2_001);
        assertThat(splits.withoutRecords()).containsOnlyKeys(DEVICES_0);
    }

    /**
     * Flink passes the watermarks of the reader's own output downstream directly, not as the least
     * of the splits': its generator (the reader's first) never follows the wall clock, even with
     * every partition verified at its end.
     */
    @Test
    void theReadersOwnOutputNeverFollowsTheWallClock() {
        ReaderSplits reader = new ReaderSplits();
        reader.tracked();
        assertThat(reader.firstGenerator()).isTrue();
        assertThat(reader.firstGenerator()).as("the splits' generators come after").isFalse();
        IdleAdvancingWatermarks main =
                generator((topic, partition, next) -> WALL + 5_000, reader, true);
        reader.added(Map.of(REQUESTS_1, 7L));
        activity.advanceTime(Duration.ofSeconds(60));
        wall.advanceTime(Duration.ofSeconds(60));
        main.onPeriodicEmit(out);
        reader.firstRecord(REQUESTS_1);
        main.onPeriodicEmit(out);
        assertThat(emitted).isEmpty();
    }

    /**
     * A reader whose splits are not known (not read through SplitTrackingSource) never advances.
     */
    @Test
    void aSplitWithoutARecordOfAnUnknownReaderDoesNotFollowTheWallClock() {
        IdleAdvancingWatermarks unknown =
                generator((topic, partition, next) -> Long.MAX_VALUE, new ReaderSplits(), false);
        activity.advanceTime(Duration.ofSeconds(60));
        wall.advanceTime(Duration.ofSeconds(60));
        unknown.onPeriodicEmit(out);
        assertThat(emitted).isEmpty();
    }

    /**
     * Under backpressure the fetcher is blocked and the consumer's lag is as old as the pause: the
     * quiet that counts starts when the activity clock runs again.
     */
    @Test
    void afterBackpressureTheQuietStartsAgainBeforeTheWallClockIsFollowed() {
        Map<String, Boolean> caughtUp = new HashMap<>();
        IdleAdvancingWatermarks lagAware = lagAware(caughtUp);
        caughtUp.put("device.events/0", true);
        PushRequest p = new PushRequest();
        lagAware.onEvent(ParsedRecord.of(p).from("device.events", "0-1"), TS, out);
        activity.advanceTime(Duration.ofSeconds(9));
        wall.advanceTime(Duration.ofSeconds(9));
        lagAware.onEvent(ParsedRecord.of(p).from("device.events", "0-2"), TS + 9_000, out);
        activity.advanceTime(Duration.ofSeconds(3));
        wall.advanceTime(Duration.ofSeconds(3));
        lagAware.onPeriodicEmit(out);
        // backpressured for 30 s: only the wall clock runs
        wall.advanceTime(Duration.ofSeconds(30));
        lagAware.onPeriodicEmit(out);
        activity.advanceTime(Duration.ofSeconds(3));
        wall.advanceTime(Duration.ofSeconds(3));
        lagAware.onPeriodicEmit(out);
        assertThat(emitted)
                .as("quiet 6 s since the record, 3 s since the pause")
                .containsOnly(TS + 9_000 - 2_001);

        activity.advanceTime(Duration.ofSeconds(2));
        wall.advanceTime(Duration.ofSeconds(2));
        lagAware.onPeriodicEmit(out);
        assertThat(emitted).last().isEqualTo(WALL + 47_000 - 2_001);
    }

    @Test
    void readsThePartitionOfAKafkaPosition() {
        assertThat(IdleAdvancingWatermarks.partitionOf("12-3456")).isEqualTo(12);
        assertThat(IdleAdvancingWatermarks.partitionOf("line 7")).isEqualTo(-1);
        assertThat(IdleAdvancingWatermarks.partitionOf("-1")).isEqualTo(-1);
        assertThat(IdleAdvancingWatermarks.partitionOf(null)).isEqualTo(-1);
    }

    /** The partitions of the generators' reader. */
    private final ReaderSplits splits = new ReaderSplits();

    {
        splits.tracked();
    }

    private static final TopicPartition DEVICES_0 = new TopicPartition("device.events", 0);
    private static final TopicPartition REQUESTS_1 = new TopicPartition("push.requests", 1);

    /** Checks of the broker: "topic/partition@next" to the time of the check that verified it. */
    private final Map<String, Long> checks = new HashMap<>();

    /**
     * The broker's answer is when it checked: a record written after that moment may still be on
     * its way, so the watermark follows the check's time, not the wall clock's.
     */
    @Test
    void aQuietPartitionFollowsTheTimeItWasLastVerifiedAtItsEnd() {
        IdleAdvancingWatermarks verified = lagAware(new HashMap<>());
        PushRequest p = new PushRequest();
        verified.onEvent(ParsedRecord.of(p).from("push.requests", "1-41"), TS, out);
        activity.advanceTime(Duration.ofSeconds(30));
        wall.advanceTime(Duration.ofSeconds(30));
        verified.onPeriodicEmit(out);
        assertThat(emitted).as("not checked yet").containsExactly(TS - 2_001);

        checks.put("push.requests/1@42", WALL + 29_900);
        verified.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(TS - 2_001, WALL + 29_900 - 2_001);
    }

    /** A check of where the split was before its last record says nothing about after it. */
    @Test
    void aCheckOfAnEarlierPositionDoesNotCount() {
        IdleAdvancingWatermarks verified = lagAware(new HashMap<>());
        PushRequest p = new PushRequest();
        checks.put("push.requests/1@42", WALL + 20_000);
        verified.onEvent(ParsedRecord.of(p).from("push.requests", "1-41"), TS, out);
        verified.onEvent(ParsedRecord.of(p).from("push.requests", "1-42"), TS + 1, out);
        activity.advanceTime(Duration.ofSeconds(30));
        wall.advanceTime(Duration.ofSeconds(30));
        verified.onPeriodicEmit(out);
        assertThat(emitted).containsExactly(TS + 1 - 2_001);
    }

    @Test
    void readsTheOffsetOfAKafkaPosition() {
        assertThat(IdleAdvancingWatermarks.offsetOf("12-3456")).isEqualTo(3456);
        assertThat(IdleAdvancingWatermarks.offsetOf("12-")).isEqualTo(-1);
        assertThat(IdleAdvancingWatermarks.offsetOf("line 7")).isEqualTo(-1);
        assertThat(IdleAdvancingWatermarks.offsetOf(null)).isEqualTo(-1);
    }

    private IdleAdvancingWatermarks lagAware(Map<String, Boolean> caughtUp) {
        LogEnds ends =
                new LogEnds() {
                    @Override
                    public long endVerifiedAt(String topic, int partition, long next) {
                        Long at = checks.get(topic + "/" + partition + "@" + next);
                        if (at != null) {
                            return at;
                        }
                        return caughtUp.getOrDefault(topic + "/" + partition, false)
                                ? Long.MAX_VALUE
                                : Long.MIN_VALUE;
                    }
                };
        return generator(ends, splits, false);
    }

    /** A generator of 2 s disorder and 5 s idle advance on the test's clocks. */
    private IdleAdvancingWatermarks generator(
            LogEnds ends, ReaderSplits reader, boolean readerOutput) {
        return new IdleAdvancingWatermarks(
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ZERO,
                activity,
                wall,
                ends,
                reader,
                readerOutput);
    }
}
