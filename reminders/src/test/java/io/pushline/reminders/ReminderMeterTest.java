package io.pushline.reminders;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.SendRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class ReminderMeterTest {
    /** Sends released per whole second of the clock, in the order released. */
    private final Map<Long, List<SendRecord>> perSecond = new TreeMap<>();

    private int taken;

    @Test
    void startsOnceItHoldsTheDelayAtTheRateThenHoldsTheRateEachSecond() throws Exception {
        try (var h = harness(new ReminderMeter(100, 2_000), null)) {
            h.setProcessingTime(10_000);
            for (int i = 0; i < 199; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
            }
            tick(h, 10_000, 10_290);
            assertThat(perSecond).as("199 sends: less than 2 s at 100/s").isEmpty();
            h.setProcessingTime(10_300);
            for (int i = 199; i < 350; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
            }
            h.setProcessingTime(10_300);
            collect(h);
            assertThat(perSecond)
                    .as("full at 10.3 s: the run begins at 11 s, not in a burst")
                    .isEmpty();
            h.setProcessingTime(11_000);
            collect(h);
            assertThat(perSecond.get(11L)).as("11 s's first slice").hasSize(5);
            tick(h, 11_000, 15_000);
            assertThat(counts())
                    .containsExactly(
                            Map.entry(11L, 100),
                            Map.entry(12L, 100),
                            Map.entry(13L, 100),
                            Map.entry(14L, 50));
            assertThat(sent()).as("each once, in arrival order").hasSize(350);
            assertThat(perSecond.get(11L).get(0).uid).isEqualTo("u0");
            assertThat(perSecond.get(14L).get(49).uid).isEqualTo("u349");
        }
    }

    @Test
    void aRunThatWouldBeginLateInASecondBeginsAtTheNext() throws Exception {
        try (var h = harness(new ReminderMeter(100, 1_000), null)) {
            h.setProcessingTime(10_700);
            for (int i = 0; i < 150; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
            }
            tick(h, 10_700, 13_000);
            assertThat(counts()).containsExactly(Map.entry(11L, 100), Map.entry(12L, 50));
        }
    }

    @Test
    void theEndOfInputSendsWhatItHolds() throws Exception {
        try (var h = harness(new ReminderMeter(100, 2_000), null)) {
            h.setProcessingTime(10_000);
            for (int i = 0; i < 150; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
            }
            collect(h);
            assertThat(perSecond).as("still filling its buffer").isEmpty();
            h.endInput();
            collect(h);
            assertThat(sent()).hasSize(150);
        }
    }

    @Test
    void aSmallTaskWaitsTwiceTheDelayAtMost() throws Exception {
        try (var h = harness(new ReminderMeter(100, 1_000), null)) {
            h.setProcessingTime(10_100);
            for (int i = 0; i < 5; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
            }
            tick(h, 10_100, 12_090);
            assertThat(perSecond).isEmpty();
            tick(h, 12_100, 14_000);
            assertThat(counts())
                    .as("from the next whole second")
                    .containsExactly(Map.entry(13L, 5));
        }
    }

    /**
     * Upstream writes a second late and then two at once: the written rate stays even while the
     * meter's buffer covers the gap.
     */
    @Test
    void aStallUpstreamShorterThanTheBufferDoesNotShowInTheRate() throws Exception {
        try (var h = harness(new ReminderMeter(100, 2_000), null)) {
            int next = 0;
            for (long second = 10; second < 20; second++) {
                h.setProcessingTime(second * 1000);
                collect(h);
                // second 13 brings nothing, second 14 twice the rate
                int n = second == 13 ? 0 : second == 14 ? 200 : 100;
                for (int i = 0; i < n; i++) {
                    h.processElement(new StreamRecord<>(send("t", next++, 0)));
                }
                tick(h, second * 1000, second * 1000 + 999);
            }
            tick(h, 20_000, 23_000);
            Map<Long, Integer> expected = new TreeMap<>();
            for (long second = 11; second <= 20; second++) {
                expected.put(second, 100);
            }
            assertThat(counts()).isEqualTo(expected);
            assertThat(sent()).hasSize(1000);
        }
    }

    @Test
    void theRateCountsSubscribersSoEveryDeviceOfOneGoesInItsSecond() throws Exception {
        try (var h = harness(new ReminderMeter(10, 100), null)) {
            h.setProcessingTime(5_000);
            for (int i = 0; i < 15; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
                h.processElement(new StreamRecord<>(send("t", i, 1)));
            }
            tick(h, 5_000, 7_000);
            assertThat(counts()).containsExactly(Map.entry(5L, 20), Map.entry(6L, 10));
            // another task's push to the same uid is another subscriber
            h.processElement(new StreamRecord<>(send("other", 0, 0)));
            tick(h, 7_000, 7_100);
            assertThat(perSecond.get(7L))
                    .extracting(s -> s.msgId)
                    .containsExactly("reminder-other");
        }
    }

    @Test
    void aRestoreSendsTheQueuedSendsOnceAfterBuildingItsBufferAgain() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(new ReminderMeter(100, 1_000), null)) {
            h.setProcessingTime(10_000);
            for (int i = 0; i < 250; i++) {
                h.processElement(new StreamRecord<>(send("t", i, 0)));
            }
            tick(h, 10_000, 11_500);
            snapshot = h.snapshot(1, 11_500);
            tick(h, 11_510, 11_700); // sent after the checkpoint: lost with the failure
        }
        // 10 s whole and 11 s's first 13 slices went out before the checkpoint
        List<String> before = sent().subList(0, 165);
        perSecond.clear();
        try (var h = harness(new ReminderMeter(100, 1_000), snapshot, 30_000)) {
            tick(h, 30_000, 31_990);
            assertThat(perSecond).as("85 queued: it waits twice the delay for more").isEmpty();
            tick(h, 32_000, 35_000);
            assertThat(counts()).containsExactly(Map.entry(32L, 85));
            assertThat(sent()).hasSize(85).doesNotContainAnyElementsOf(before);
        }
    }

    @Test
    void aRunGoesOnThroughAShortGapAndEndsAfterTwiceTheDelayIdle() throws Exception {
        try (var h = harness(new ReminderMeter(100, 1_000), null)) {
            h.setProcessingTime(10_000);
            h.processElement(new StreamRecord<>(send("a", 0, 0)));
            tick(h, 10_000, 13_000);
            assertThat(counts()).containsExactly(Map.entry(12L, 1));
            h.processElement(new StreamRecord<>(send("b", 0, 0)));
            tick(h, 13_000, 20_000);
            assertThat(counts()).as("1 s after the last send: at once").containsEntry(13L, 1);
            h.processElement(new StreamRecord<>(send("c", 0, 0)));
            tick(h, 20_000, 23_000);
            assertThat(counts())
                    .containsExactly(Map.entry(12L, 1), Map.entry(13L, 1), Map.entry(22L, 1));
        }
    }

    private void tick(
            OneInputStreamOperatorTestHarness<SendRecord, SendRecord> h, long from, long to)
            throws Exception {
        for (long t = from; t <= to; t += 10) {
            h.setProcessingTime(t);
            collect(h);
        }
    }

    /** Attributes what came out since the last call to the harness clock's current second. */
    private void collect(OneInputStreamOperatorTestHarness<SendRecord, SendRecord> h) {
        List<SendRecord> out = h.extractOutputValues();
        long second = h.getProcessingTime() / 1000;
        for (SendRecord s : out.subList(taken, out.size())) {
            perSecond.computeIfAbsent(second, k -> new ArrayList<>()).add(s);
        }
        taken = out.size();
    }

    private Map<Long, Integer> counts() {
        Map<Long, Integer> n = new TreeMap<>();
        perSecond.forEach((s, l) -> n.put(s, l.size()));
        return n;
    }

    /** Every send released (msgId/deviceId), none twice. */
    private List<String> sent() {
        List<String> all = new ArrayList<>();
        perSecond.values().forEach(l -> l.forEach(s -> all.add(s.msgId + "/" + s.deviceId)));
        assertThat(new HashSet<>(all)).as("no send twice").hasSameSizeAs(all);
        return all;
    }

    static SendRecord send(String task, int user, int device) {
        SendRecord s = new SendRecord();
        s.msgId = "reminder-" + task;
        s.msgType = "reminder";
        s.level = 2;
        s.uid = "u" + user;
        s.deviceId = "d" + user + "-" + device;
        s.vendor = "fcm";
        s.token = "tok" + user;
        s.title = "Launch";
        s.body = "claim your gift";
        s.ts = 1_000;
        return s;
    }

    private OneInputStreamOperatorTestHarness<SendRecord, SendRecord> harness(
            ReminderMeter meter, OperatorSubtaskState restore) throws Exception {
        return harness(meter, restore, 0);
    }

    private OneInputStreamOperatorTestHarness<SendRecord, SendRecord> harness(
            ReminderMeter meter, OperatorSubtaskState restore, long clock) throws Exception {
        taken = 0;
        var h = new OneInputStreamOperatorTestHarness<>(meter);
        h.setProcessingTime(clock);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }
}
