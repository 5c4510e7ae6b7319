package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

class SchedulerTest {

    @Test
    void holdsARequestUntilTheWatermarkPassesItsAtThenDecidesItThere() throws Exception {
        try (var h = harness(null)) {
            h.processElement(record(uidPush("p1", 100, 1_000, "u1")), 100);
            h.processWatermark(999);
            assertThat(side(h, DispatchTags.UID_KEYED)).isEmpty();
            assertThat(h.numEventTimeTimers()).isEqualTo(1);

            h.processWatermark(1_000);

            List<UidKeyed> out = side(h, DispatchTags.UID_KEYED);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).uid).isEqualTo("u1");
            assertThat(out.get(0).request.ts).isEqualTo(1_000);
            assertThat(out.get(0).request.at).isNull();
            assertThat(h.numEventTimeTimers()).isZero();
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void releasesInAtOrderAcrossKeysWhenTheWatermarkJumps() throws Exception {
        try (var h = harness(null)) {
            h.processElement(record(uidPush("p3", 10, 3_000, "u3")), 10);
            h.processElement(record(uidPush("p1", 10, 1_000, "u1")), 10);
            h.processElement(record(uidPush("p2", 10, 2_000, "u2")), 10);
            h.processWatermark(5_000);
            assertThat(side(h, DispatchTags.UID_KEYED).stream().map(u -> u.uid))
                    .containsExactly("u1", "u2", "u3");
        }
    }

    @Test
    void oneMsgIdWithTwoTimesWaitsTwice() throws Exception {
        try (var h = harness(null)) {
            h.processElement(record(devicePush("r", 0, 2_000, "d1")), 0);
            h.processElement(record(devicePush("r", 0, 1_000, "d2")), 0);
            h.processWatermark(1_500);
            assertThat(h.extractOutputValues().stream().map(d -> d.deviceId)).containsExactly("d2");
            h.processWatermark(2_500);
            assertThat(h.extractOutputValues().stream().map(d -> d.deviceId))
                    .containsExactly("d2", "d1");
            assertThat(h.extractOutputValues().get(1).request.ts).isEqualTo(2_000);
        }
    }

    @Test
    void aLateLoadIsReleasedAtOnceStampedAt() throws Exception {
        try (var h = harness(null)) {
            h.processWatermark(5_000);
            h.processElement(record(uidPush("p1", 100, 2_000, "u1")), 100);
            List<UidKeyed> out = side(h, DispatchTags.UID_KEYED);
            assertThat(out).hasSize(1);
            assertThat(out.get(0).request.ts).isEqualTo(2_000);
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void aRestartBetweenLoadingAndReleaseNeitherLosesNorRepeats() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(null)) {
            for (int i = 0; i < 20; i++) {
                h.processElement(record(uidPush("p" + i, 0, 1_000 + i * 100L, "u" + i)), 0);
            }
            h.processWatermark(1_450); // p0..p4 out before the checkpoint
            assertThat(side(h, DispatchTags.UID_KEYED)).hasSize(5);
            snapshot = h.snapshot(1, 0);
            h.processWatermark(1_750); // lost with the failure: never committed
        }
        try (var h = harness(snapshot)) {
            h.processWatermark(10_000);
            List<String> after =
                    side(h, DispatchTags.UID_KEYED).stream()
                            .map(u -> u.request.msgId)
                            .collect(Collectors.toList());
            assertThat(after).hasSize(15).doesNotHaveDuplicates();
            assertThat(after.get(0)).isEqualTo("p5");
            assertThat(after.get(14)).isEqualTo("p19");
        }
    }

    @Test
    void splitSendsOnlyFutureAtToTheSchedulerAndRefusesTooFarAhead() throws Exception {
        OneInputStreamOperatorTestHarness<ParsedRecord, RegistryInput> h =
                ProcessFunctionTestHarnesses.forProcessFunction(
                        new SplitInput(false, Duration.ofHours(1)));
        h.processElement(record(uidPush("later", 0, 60_000, "u1")), 0);
        h.processElement(record(uidPush("past", 60_000, 1_000, "u1")), 60_000);
        h.processElement(record(uidPush("far", 0, 3_600_001, "u1")), 0);

        assertThat(side(h, DispatchTags.SCHEDULED).stream().map(r -> r.request.msgId))
                .containsExactly("later");
        assertThat(side(h, DispatchTags.UID_KEYED).stream().map(u -> u.request.msgId))
                .containsExactly("past");
        assertThat(side(h, DispatchTags.DEAD_LETTERS)).hasSize(1);
        assertThat(side(h, DispatchTags.DEAD_LETTERS).get(0).reason)
                .contains("'at'")
                .contains("dispatch.max-schedule-ahead");
        h.close();
    }

    /** A push stamped ten years ahead once waited in state without a word; now it is refused. */
    @Test
    void recordsStampedTooFarAheadOfTheWallClockAreDeadLetters() throws Exception {
        long now = 1_800_000_000_000L;
        OneInputStreamOperatorTestHarness<ParsedRecord, RegistryInput> h =
                ProcessFunctionTestHarnesses.forProcessFunction(
                        new SplitInput(false, Duration.ofDays(2), Duration.ofHours(1), null));
        h.setProcessingTime(now);
        long tenYears = Duration.ofDays(3650).toMillis();
        h.processElement(record(uidPush("soon", now + 3_500_000, now + 3_500_000, "u1")), 0);
        h.processElement(record(uidPush("2036", now + tenYears, now + tenYears, "u1")), 0);
        DeviceEvent bind = DeviceEvent.bind(now + tenYears, "d1", "u1", "fcm", "SECRET", "UTC");
        h.processElement(ParsedRecord.of(bind).from("device.events", "0-9"), 0);
        h.processElement(record(uidPush("past", now - tenYears, now - tenYears, "u1")), 0);

        assertThat(side(h, DispatchTags.UID_KEYED).stream().map(u -> u.request.msgId))
                .containsExactly("soon", "past");
        assertThat(h.extractOutputValues()).isEmpty();
        List<DeadLetter> dead = side(h, DispatchTags.DEAD_LETTERS);
        assertThat(dead).extracting(d -> d.position).containsExactly("2036", "0-9");
        assertThat(dead.get(0).reason)
                .contains("ahead of the wall clock")
                .contains("dispatch.max-future");
        assertThat(dead.get(1).raw).contains("\"deviceId\":\"d1\"").doesNotContain("SECRET");
        h.close();

        // replay has no wall clock: no check there
        OneInputStreamOperatorTestHarness<ParsedRecord, RegistryInput> replay =
                ProcessFunctionTestHarnesses.forProcessFunction(
                        new SplitInput(false, Duration.ofDays(2)));
        replay.setProcessingTime(now);
        replay.processElement(record(uidPush("2036", now + tenYears, now + tenYears, "u1")), 0);
        assertThat(side(replay, DispatchTags.DEAD_LETTERS)).isEmpty();
        replay.close();
    }

    @Test
    void recordsOlderThanTheGatesMemoryAreDeadLetters() throws Exception {
        long now = 1_800_000_000_000L;
        OneInputStreamOperatorTestHarness<ParsedRecord, RegistryInput> h =
                ProcessFunctionTestHarnesses.forProcessFunction(
                        new SplitInput(
                                false,
                                Duration.ofDays(2),
                                Duration.ofHours(1),
                                Duration.ofDays(8)));
        h.setProcessingTime(now);
        long day = Duration.ofDays(1).toMillis();
        h.processElement(record(uidPush("week", now - 7 * day, now - 7 * day, "u1")), 0);
        h.processElement(record(uidPush("month", now - 30 * day, now - 30 * day, "u1")), 0);
        h.processElement(record(uidPush("min", Long.MIN_VALUE + 1, Long.MIN_VALUE + 1, "u1")), 0);
        h.processElement(record(uidPush("max", Long.MAX_VALUE, Long.MAX_VALUE, "u1")), 0);
        // a binding has no TTL: an old bind is still a binding
        DeviceEvent old = DeviceEvent.bind(now - 30 * day, "d1", "u1", "fcm", "t", "UTC");
        h.processElement(ParsedRecord.of(old).from("device.events", "0-1"), 0);

        assertThat(side(h, DispatchTags.UID_KEYED).stream().map(u -> u.request.msgId))
                .containsExactly("week");
        List<DeadLetter> dead = side(h, DispatchTags.DEAD_LETTERS);
        assertThat(dead).extracting(d -> d.position).containsExactly("month", "min", "max");
        assertThat(h.extractOutputValues()).extracting(r -> r.deviceId).containsExactly("d1");
        assertThat(dead.get(0).reason)
                .isEqualTo(
                        "field 'ts' is PT720H behind the wall clock, more than PT192H"
                                + " (dispatch.max-past: the gate no longer remembers that time)");
        h.close();
    }

    // 2,000 a second on one subtask: at most 100 per 50 ms step
    private static final int RATE = 2_000;

    @Test
    void aBurstOfDueSlotsLeavesAtTheReleaseRateInAtOrderEachStampedWhenReleased() throws Exception {
        try (var h = harness(null, RATE)) {
            h.setProcessingTime(0);
            for (int i = 0; i < 300; i++) {
                h.processElement(record(uidPush("s" + i, 10, 1_000 + i % 3, "u" + i)), 10);
            }
            h.processWatermark(2_000);
            List<UidKeyed> first = side(h, DispatchTags.UID_KEYED);
            assertThat(first).hasSize(100);
            assertThat(first).allMatch(u -> u.request.ts >= 1_000 && u.request.ts <= 1_002);
            assertThat(h.numKeyedStateEntries()).isZero(); // the rest wait in the queue

            h.setProcessingTime(50);
            h.processWatermark(2_050);
            List<UidKeyed> second = side(h, DispatchTags.UID_KEYED);
            assertThat(second).hasSize(200);
            // released after the watermark 2,000 had gone downstream: stamped after it
            assertThat(second.subList(100, 200)).allMatch(u -> u.request.ts == 2_001);

            h.setProcessingTime(100);
            h.processWatermark(2_100);
            h.setProcessingTime(150);
            h.processWatermark(2_150);
            List<UidKeyed> all = side(h, DispatchTags.UID_KEYED);
            assertThat(all.stream().map(u -> u.uid).distinct()).hasSize(300);
            assertThat(all).hasSize(300);
            // in 'at' order: every at-1,000 slot before any at-1,001 slot, and so on
            List<Long> ats =
                    all.stream()
                            .map(u -> (long) (1_000 + Integer.parseInt(u.uid.substring(1)) % 3))
                            .collect(Collectors.toList());
            assertThat(ats).isSorted();
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void queuedSlotsSurviveARestoreAndLeaveOnceEach() throws Exception {
        OperatorSubtaskState snapshot;
        List<String> before;
        try (var h = harness(null, RATE)) {
            h.setProcessingTime(0);
            for (int i = 0; i < 250; i++) {
                h.processElement(record(uidPush("s" + i, 10, 1_000, "u" + i)), 10);
            }
            h.processWatermark(2_000);
            before = side(h, DispatchTags.UID_KEYED).stream().map(u -> u.uid).toList();
            assertThat(before).hasSize(100);
            snapshot = h.snapshot(1, 0);
        }
        try (var h = harness(snapshot, RATE)) {
            for (int t = 1; t <= 4; t++) {
                h.setProcessingTime(50L * t);
                h.processWatermark(2_000 + 50L * t);
            }
            List<UidKeyed> out = side(h, DispatchTags.UID_KEYED);
            assertThat(out).hasSize(150);
            assertThat(out.stream().map(u -> u.uid).distinct()).hasSize(150);
            assertThat(out).noneMatch(u -> before.contains(u.uid));
        }
    }

    @Test
    void lateLoadsBeyondTheRateLeaveAtTheNextWatermarkStampedAfterIt() throws Exception {
        try (var h = harness(null, RATE)) {
            h.setProcessingTime(0);
            h.processWatermark(5_000);
            for (int i = 0; i < 150; i++) {
                h.processElement(record(uidPush("late" + i, 10, 1_000, "u" + i)), 10);
            }
            List<UidKeyed> now = side(h, DispatchTags.UID_KEYED);
            assertThat(now).hasSize(100).allMatch(u -> u.request.ts == 1_000);

            h.setProcessingTime(50);
            h.processWatermark(5_050);
            List<UidKeyed> all = side(h, DispatchTags.UID_KEYED);
            assertThat(all).hasSize(150);
            assertThat(all.subList(100, 150)).allMatch(u -> u.request.ts == 5_001);
        }
    }

    @Test
    void withoutARateEverythingDueLeavesAtOnceAtItsAt() throws Exception {
        try (var h = harness(null, 0)) {
            for (int i = 0; i < 300; i++) {
                h.processElement(record(uidPush("s" + i, 10, 1_000, "u" + i)), 10);
            }
            h.processWatermark(2_000);
            assertThat(side(h, DispatchTags.UID_KEYED))
                    .hasSize(300)
                    .allMatch(u -> u.request.ts == 1_000);
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ParsedRecord, RegistryInput>
            harness(OperatorSubtaskState restore) throws Exception {
        return harness(restore, 0);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ParsedRecord, RegistryInput>
            harness(OperatorSubtaskState restore, int releaseRate) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, ParsedRecord, RegistryInput> h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(
                                new Scheduler(false, Integer.MAX_VALUE, releaseRate)),
                        r -> r.request.msgId,
                        Types.STRING);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    private static <T> List<T> side(OneInputStreamOperatorTestHarness<?, ?> h, OutputTag<T> tag) {
        var queue = h.getSideOutput(tag);
        if (queue == null) {
            return List.of();
        }
        return queue.stream()
                .map(r -> ((StreamRecord<T>) r).getValue())
                .collect(Collectors.toList());
    }

    private static ParsedRecord record(PushRequest p) {
        return ParsedRecord.of(p).from("test", p.msgId);
    }

    private static PushRequest uidPush(String msgId, long ts, long at, String uid) {
        PushRequest p = push(msgId, ts, at);
        p.target = new Target();
        p.target.uids = List.of(uid);
        return p;
    }

    private static PushRequest devicePush(String msgId, long ts, long at, String device) {
        PushRequest p = push(msgId, ts, at);
        p.target = new Target();
        p.target.devices = List.of(device);
        return p;
    }

    private static PushRequest push(String msgId, long ts, long at) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.at = at;
        p.msgId = msgId;
        p.msgType = "personal";
        p.title = "t";
        p.body = "b";
        return p;
    }
}
