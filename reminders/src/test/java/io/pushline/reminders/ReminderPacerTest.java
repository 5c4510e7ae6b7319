package io.pushline.reminders;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.eval.IdSet;
import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class ReminderPacerTest {
    @Test
    void tasksFiringTogetherShareTheRateInFiringOrderWhateverOrderTheyArriveIn() throws Exception {
        try (var h = harness(new ReminderPacer(3, 100, false), null)) {
            // b and a fire in the same second, a first by taskId; c fires a second later
            h.processElement(new StreamRecord<>(fired("c", 11_000, 0, 2), 11_000));
            h.processElement(new StreamRecord<>(fired("b", 10_200, 10, 4), 10_200));
            h.processElement(new StreamRecord<>(fired("a", 10_200, 20, 2), 10_200));
            h.processWatermark(new Watermark(10_500));
            assertThat(pushes(h)).as("c's time has not come").doesNotContainKey("c0");
            h.processWatermark(new Watermark(11_000));
            Map<String, Long> at = pushes(h);
            // second 10: a20, a21, b10 (from 10.2 s on); second 11: b11-b13; 12: c0, c1
            assertThat(at)
                    .containsEntry("a20", 10_200L)
                    .containsEntry("a21", 10_200L)
                    .containsEntry("b10", 10_200L)
                    .containsEntry("b11", 11_000L)
                    .containsEntry("b13", 11_000L)
                    .containsEntry("c0", 12_000L)
                    .containsEntry("c1", 12_000L)
                    .hasSize(8);
        }
    }

    @Test
    void pulledSubscribersComeOutAtTheFireTimeAndAreNotPushed() throws Exception {
        try (var h = harness(new ReminderPacer(1000, 100, false), null)) {
            FiredTask t = fired("t", 5_000, 0, 3);
            t.pulled = IdSet.of(7, 8).toBytes();
            t.pulledCount = 2;
            h.processElement(new StreamRecord<>(t, 5_000));
            h.processWatermark(new Watermark(Long.MAX_VALUE));
            List<ReminderChunk> out = h.extractOutputValues();
            List<Integer> pulled = new ArrayList<>();
            for (ReminderChunk c : out) {
                if (c.action.equals(ReminderLine.PULLED)) {
                    assertThat(c.at).isEqualTo(5_000);
                    IntStream.of(c.ids).forEach(pulled::add);
                }
            }
            assertThat(pulled).containsExactly(7, 8);
            assertThat(pushes(h)).containsOnlyKeys("t0", "t1", "t2");
        }
    }

    /**
     * In real time the pulled (a lookup and a decision each, downstream) wait until no push is
     * queued, then leave at most at the rate, so they take no CPU from a firing.
     */
    @Test
    void inRealTimeThePulledLeaveAfterEveryQueuedPushAtTheRate() throws Exception {
        try (var h = harness(new ReminderPacer(100, 1000, true), null)) {
            h.setProcessingTime(10_000);
            FiredTask a = withPulled(fired("a", 10_000, 0, 150), 1000, 250);
            h.processElement(new StreamRecord<>(a, 10_000));
            h.processElement(new StreamRecord<>(fired("b", 10_000, 500, 100), 10_000));
            h.processWatermark(new Watermark(10_000));
            Map<Long, Integer> pulledPerSecond = new HashMap<>();
            long lastPush = 0;
            int pulledSoFar = 0;
            for (long t = 10_000; t <= 16_000; t++) {
                h.setProcessingTime(t);
                int pushed = pushes(h).size();
                if (pushed < 250) {
                    lastPush = t + 1;
                }
                int n = pulled(h).size();
                if (n > pulledSoFar) {
                    assertThat(pushed)
                            .as("pulled out at %d before the last push", t)
                            .isEqualTo(250);
                    pulledPerSecond.merge(t / 1000 * 1000, n - pulledSoFar, Integer::sum);
                    pulledSoFar = n;
                }
            }
            assertThat(lastPush)
                    .as("b's pushes, behind a's, the last at 12.36 s")
                    .isEqualTo(12_360);
            assertThat(pulled(h)).hasSize(250).doesNotHaveDuplicates();
            assertThat(pulledPerSecond)
                    .as("at most the rate a second, from the second of the last push on")
                    .containsEntry(12_000L, 100)
                    .containsEntry(13_000L, 100)
                    .containsEntry(14_000L, 50)
                    .allSatisfy((second, n) -> assertThat(n).isLessThanOrEqualTo(100));
        }
    }

    /** A bounded run ends with pulled subscribers still waiting for the rate: they all leave. */
    @Test
    void inRealTimeTheEndOfInputLetsEveryWaitingPulledOut() throws Exception {
        try (var h = harness(new ReminderPacer(100, 1000, true), null)) {
            h.setProcessingTime(10_000);
            FiredTask a = withPulled(fired("a", 10_000, 0, 10), 1000, 250);
            h.processElement(new StreamRecord<>(a, 10_000));
            FiredTask b = withPulled(fired("b", 10_000, 500, 10), 2000, 100);
            h.processElement(new StreamRecord<>(b, 10_000));
            h.processWatermark(new Watermark(10_000));
            h.setProcessingTime(10_500);
            assertThat(pulled(h)).as("the rate holds the rest back").hasSizeLessThan(350);
            h.endInput();
            assertThat(pushes(h)).hasSize(20);
            assertThat(pulled(h)).hasSize(350).doesNotHaveDuplicates();
        }
    }

    @Test
    void aRestoreInTheMiddleOfThePulledGoesOnWithTheRest() throws Exception {
        OperatorSubtaskState snapshot;
        List<String> before;
        try (var h = harness(new ReminderPacer(100, 1000, true), null)) {
            h.setProcessingTime(10_000);
            FiredTask a = withPulled(fired("a", 10_000, 0, 10), 1000, 250);
            h.processElement(new StreamRecord<>(a, 10_000));
            h.processWatermark(new Watermark(10_000));
            for (long t = 10_000; t <= 11_500; t += 10) {
                h.setProcessingTime(t);
            }
            before = pulled(h);
            snapshot = h.snapshot(1, 1);
        }
        assertThat(before).isNotEmpty().hasSizeLessThan(250);
        try (var h = harness(new ReminderPacer(100, 1000, true), snapshot)) {
            for (long t = 11_500; t <= 15_000; t += 10) {
                h.setProcessingTime(t);
            }
            List<String> all = new ArrayList<>(before);
            all.addAll(pulled(h));
            assertThat(all).hasSize(250).doesNotHaveDuplicates();
            assertThat(pushes(h)).as("the pushes were out before the checkpoint").isEmpty();
        }
    }

    /**
     * In real time a push leaves when the clock reaches its send time, a slice every 40 ms, all of
     * a second's pushes within its first 800 ms.
     */
    @Test
    void inRealTimePushesLeaveWhenTheirSecondComesInSlices() throws Exception {
        try (var h = harness(new ReminderPacer(100, 1000, true), null)) {
            h.setProcessingTime(9_000);
            h.processElement(new StreamRecord<>(fired("t", 10_000, 0, 250), 10_000));
            h.processWatermark(new Watermark(10_000));
            assertThat(pushes(h)).as("not before 10 s by the clock").isEmpty();
            h.setProcessingTime(10_000);
            assertThat(pushes(h)).hasSize(5); // the first slice of 100
            h.setProcessingTime(10_400);
            assertThat(pushes(h)).hasSize(55);
            h.setProcessingTime(10_760);
            assertThat(pushes(h)).as("the whole second by 760 ms").hasSize(100);
            h.setProcessingTime(10_999);
            h.setProcessingTime(11_000);
            Map<String, Long> at = pushes(h);
            assertThat(at.values().stream().filter(t -> t == 10_000L)).hasSize(100);
            assertThat(at.values().stream().filter(t -> t == 11_000L)).hasSize(5);
            for (long t = 11_001; t <= 13_000; t++) {
                h.setProcessingTime(t);
            }
            assertThat(pushes(h)).hasSize(250);
            assertThat(pushes(h).values().stream().filter(t -> t == 12_000L)).hasSize(50);
        }
    }

    /** A pacer that learns of a task late sends from the current second on, not two in one. */
    @Test
    void inRealTimeAPacerBehindItsScheduleDoesNotCatchUpInABurst() throws Exception {
        try (var h = harness(new ReminderPacer(100, 1000, true), null)) {
            h.setProcessingTime(11_500); // the task fired at 10 s; its watermark came 1.5 s late
            h.processElement(new StreamRecord<>(fired("t", 10_000, 0, 250), 10_000));
            h.processWatermark(new Watermark(10_000));
            assertThat(pushes(h)).as("the slices of 11 s gone by, not all of 10 s too").hasSize(65);
            for (long t = 11_501; t <= 14_000; t++) {
                h.setProcessingTime(t);
            }
            Map<Long, Integer> perSecond = new HashMap<>();
            pushes(h).values().forEach(at -> perSecond.merge(at, 1, Integer::sum));
            assertThat(perSecond)
                    .containsEntry(11_000L, 100)
                    .containsEntry(12_000L, 100)
                    .containsEntry(13_000L, 50)
                    .doesNotContainKey(10_000L);
        }
    }

    /**
     * With a meter after the gate, a pacer behind its schedule makes up to its catch-up of it at
     * once (the meter smooths the burst); what lies further back starts from there.
     */
    @Test
    void inRealTimeAPacerWithCatchUpMakesUpThatMuchOfItsSchedule() throws Exception {
        try (var h = harness(new ReminderPacer(100, 1000, true, 1_500), null)) {
            h.setProcessingTime(13_500); // fired at 10 s, seen 3.5 s late; catch-up rounds to 2 s
            h.processElement(new StreamRecord<>(fired("t", 10_000, 0, 400), 10_000));
            h.processWatermark(new Watermark(10_000));
            Map<Long, Integer> perSecond = new HashMap<>();
            pushes(h).values().forEach(at -> perSecond.merge(at, 1, Integer::sum));
            assertThat(perSecond)
                    .as("11 s and 12 s at once, 13 s's slices so far")
                    .containsOnly(
                            Map.entry(11_000L, 100),
                            Map.entry(12_000L, 100),
                            Map.entry(13_000L, 65));
            for (long t = 13_501; t <= 15_000; t++) {
                h.setProcessingTime(t);
            }
            assertThat(pushes(h)).hasSize(400);
        }
    }

    @Test
    void aRestoreGoesOnAfterTheLastPushOfTheCheckpointAndKeepsTheRate() throws Exception {
        OperatorSubtaskState snapshot;
        Map<String, Long> before;
        try (var h = harness(new ReminderPacer(100, 1000, true), null)) {
            h.setProcessingTime(10_000);
            h.processElement(new StreamRecord<>(fired("t", 10_000, 0, 250), 10_000));
            h.processWatermark(new Watermark(10_000));
            h.setProcessingTime(10_400);
            before = pushes(h);
            snapshot = h.snapshot(1, 1);
        }
        assertThat(before).hasSize(55);
        try (var h = harness(new ReminderPacer(100, 1000, true), snapshot)) {
            for (long t = 10_400; t <= 13_000; t += 10) {
                h.setProcessingTime(t);
            }
            Map<String, Long> after = pushes(h);
            assertThat(after).hasSize(195);
            assertThat(after.keySet()).doesNotContainAnyElementsOf(before.keySet());
            Map<Long, Integer> perSecond = new HashMap<>();
            before.values().forEach(t -> perSecond.merge(t, 1, Integer::sum));
            after.values().forEach(t -> perSecond.merge(t, 1, Integer::sum));
            assertThat(perSecond).containsEntry(10_000L, 100).containsEntry(11_000L, 100);
            assertThat(perSecond).containsEntry(12_000L, 50);
        }
    }

    static FiredTask fired(String task, long fireAt, int firstId, int n) {
        FiredTask t = new FiredTask();
        t.taskId = task;
        t.fireAt = fireAt;
        t.title = "t";
        t.body = "b";
        t.push = IdSet.of(IntStream.range(firstId, firstId + n).toArray()).toBytes();
        t.pushCount = n;
        t.pulled = IdSet.of().toBytes();
        return t;
    }

    /** The task with {@code n} pulled subscribers, ids from {@code firstId} on. */
    static FiredTask withPulled(FiredTask t, int firstId, int n) {
        t.pulled = IdSet.of(IntStream.range(firstId, firstId + n).toArray()).toBytes();
        t.pulledCount = n;
        return t;
    }

    /** Pulled subscribers out so far, as task and id. */
    private static List<String> pulled(
            OneInputStreamOperatorTestHarness<FiredTask, ReminderChunk> h) {
        List<String> out = new ArrayList<>();
        for (ReminderChunk c : h.extractOutputValues()) {
            if (c.action.equals(ReminderLine.PULLED)) {
                IntStream.of(c.ids).forEach(id -> out.add(c.taskId + id));
            }
        }
        return out;
    }

    /** Pushes so far: task and id (e.g. {@code a20}) to send time; each at most once. */
    private static Map<String, Long> pushes(
            OneInputStreamOperatorTestHarness<FiredTask, ReminderChunk> h) {
        Map<String, Long> out = new HashMap<>();
        for (ReminderChunk c : h.extractOutputValues()) {
            if (!c.action.equals(ReminderLine.PUSH)) {
                continue;
            }
            for (int id : c.ids) {
                Long was = out.put(c.taskId + id, c.at);
                assertThat(was).as("pushed twice: " + c.taskId + id).isNull();
            }
        }
        return out;
    }

    private static OneInputStreamOperatorTestHarness<FiredTask, ReminderChunk> harness(
            ReminderPacer pacer, OperatorSubtaskState restore) throws Exception {
        var h = new OneInputStreamOperatorTestHarness<>(pacer);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }
}
