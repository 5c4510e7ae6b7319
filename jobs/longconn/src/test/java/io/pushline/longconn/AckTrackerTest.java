package io.pushline.longconn;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Decision;
import io.pushline.schema.Fallback;
import io.pushline.schema.SendRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.LongconnEventSerializer;
import io.pushline.schema.longconn.LongconnTags;
import io.pushline.schema.longconn.SendBytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The ack tracker in Flink's keyed operator harness: the contract's rules, restores, the sends. */
class AckTrackerTest {
    private static final long T0 = 1_767_225_600_000L;
    private static final Duration TTL = Duration.ofDays(1);

    @Test
    void theContractsExampleLines() throws Exception {
        List<LongconnEvent> trace =
                trace(
                        LongconnEvent.presence(T0 - 1_000, "d7", true, "6.9"),
                        LongconnEvent.sent(T0, "m1", "d1"),
                        LongconnEvent.sent(T0, "m2", "d7"),
                        LongconnEvent.ack(T0 + 13_500, "m1", "d1"));
        assertThat(lines(run(AckRules.defaults(), trace, new Random(1), false)))
                .containsExactly(
                        "{\"ts\":1767225600000,\"msgId\":\"m2\",\"deviceId\":\"d7\",\"action\":\"untracked\",\"attempt\":0,\"delayMs\":null}",
                        "{\"ts\":1767225610000,\"msgId\":\"m1\",\"deviceId\":\"d1\",\"action\":\"retry\",\"attempt\":1,\"delayMs\":10000}",
                        "{\"ts\":1767225613500,\"msgId\":\"m1\",\"deviceId\":\"d1\",\"action\":\"acked\",\"attempt\":1,\"delayMs\":13500}");
    }

    @Test
    void laterRetriesLearnTheDeviceDelayAndAnAckClearsIt() throws Exception {
        AckRules rules = new AckRules(1_000, 1, 1_000, 10_000, "7.0.0");
        List<LongconnEvent> trace =
                trace(
                        LongconnEvent.sent(T0, "a", "d"),
                        // a: retry 1 at +1 s (probe), retry 2 at +3 s (2 s), retry 3 at +6 s (3 s)
                        LongconnEvent.sent(T0 + 6_500, "b", "d"),
                        // b: retry 1 at +7.5 s (probe); retry 2 takes the learned 3 s: +10.5 s
                        // the ack clears the learned delay; b's retry 2 was fixed at 7.5 s
                        LongconnEvent.ack(T0 + 8_000, "a", "d"),
                        LongconnEvent.sent(T0 + 9_000, "c", "d"),
                        LongconnEvent.ack(T0 + 12_000, "b", "d"),
                        LongconnEvent.ack(T0 + 12_000, "c", "d"));
        List<String> got = lines(run(rules, trace, new Random(2), false));
        assertThat(got)
                .containsExactly(
                        action(T0 + 1_000, "a", "retry", 1, 1_000L),
                        action(T0 + 3_000, "a", "retry", 2, 2_000L),
                        action(T0 + 6_000, "a", "retry", 3, 3_000L),
                        action(T0 + 7_500, "b", "retry", 1, 1_000L),
                        action(T0 + 8_000, "a", "acked", 3, 8_000L),
                        // c: retry 1 at +10 s; its retry 2 has no learned delay (cleared): 2 s
                        action(T0 + 10_000, "c", "retry", 1, 1_000L),
                        action(T0 + 10_500, "b", "retry", 2, 3_000L),
                        action(T0 + 12_000, "b", "acked", 2, 5_500L),
                        action(T0 + 12_000, "c", "acked", 1, 3_000L));
    }

    @Test
    void offlineFallsBackAndTheLongestDelayGivesUpWhateverThePresence() throws Exception {
        AckRules rules = new AckRules(1_000, 1, 5_000, 5_000, "7.0.0");
        List<LongconnEvent> trace =
                trace(
                        LongconnEvent.presence(T0, "d", true, "7.10"),
                        LongconnEvent.sent(T0, "a", "d"),
                        LongconnEvent.sent(T0, "b", "e"),
                        LongconnEvent.presence(T0 + 1_500, "d", false, null),
                        // a retry due at the time of an event runs after it, whatever the file
                        // order
                        LongconnEvent.presence(T0 + 1_000, "e", false, null));
        assertThat(lines(run(rules, trace, new Random(3), false)))
                .containsExactly(
                        action(T0 + 1_000, "a", "retry", 1, 1_000L),
                        action(T0 + 1_000, "b", "e", "fallback", 1, 1_000L),
                        // retry 2's delay, 1 s + 5 s, exceeds 5 s: give up at +7 s, offline or not
                        action(T0 + 7_000, "a", "give_up", 1, 6_000L));
    }

    @Test
    void aDeviceKeepsStateOnlyWhileItHasSomethingToKeep() throws Exception {
        var h = harness(AckRules.defaults(), null, 100);
        // d1's and d3's messages are acked within the hold window, d2's is not
        for (LongconnEvent e :
                List.of(
                        LongconnEvent.sent(T0, "m1", "d1"),
                        LongconnEvent.sent(T0, "m2", "d2"),
                        LongconnEvent.sent(T0 + 1, "m3", "d3"),
                        LongconnEvent.ack(T0 + 300, "m1", "d1"),
                        LongconnEvent.ack(T0 + 400, "m3", "d3"))) {
            h.processElement(new StreamRecord<>(e, e.ts));
        }
        h.processWatermark(new Watermark(T0 + 1_000));
        assertThat(h.numKeyedStateEntries()).as("all three still on the heap").isZero();
        assertThat(h.numEventTimeTimers()).isZero();
        h.processWatermark(new Watermark(T0 + DeviceLinks.HOLD_MS));
        assertThat(h.numKeyedStateEntries()).as("d2's tracked message").isEqualTo(1);
        assertThat(h.numEventTimeTimers()).as("d2's first retry").isEqualTo(1);
        OperatorSubtaskState snap = h.snapshot(1, 1);
        h.close();

        h = harness(AckRules.defaults(), snap, 100);
        h.processElement(new StreamRecord<>(LongconnEvent.ack(T0 + 3_000, "m2", "d2"), T0 + 3_000));
        h.processWatermark(new Watermark(T0 + 4_000));
        assertThat(h.extractOutputValues())
                .extracting(a -> a.action + " " + a.msgId + " " + a.attempt)
                .containsExactly("acked m2 0");
        h.processWatermark(new Watermark(T0 + 3_000 + DeviceLinks.HOLD_MS));
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numEventTimeTimers()).as("the acked message's retry").isZero();
        h.processWatermark(new Watermark(T0 + 60_000));
        assertThat(h.extractOutputValues()).as("no retry after the ack").hasSize(1);
        h.close();
    }

    @Test
    void aCheckpointWritesTheDevicesOnTheHeapAndTheirRetriesStillCome() throws Exception {
        var h = twoSendsOnTheHeap();
        assertThat(h.numKeyedStateEntries()).isZero();
        OperatorSubtaskState snap = h.snapshot(1, 1);
        assertThat(h.numKeyedStateEntries()).as("written for the checkpoint").isEqualTo(2);
        h.close();

        h = harness(AckRules.defaults(), snap, 100);
        h.processElement(new StreamRecord<>(LongconnEvent.ack(T0 + 200, "m2", "d2"), T0 + 200));
        h.processWatermark(new Watermark(T0 + 10_000));
        assertThat(h.extractOutputValues())
                .extracting(AckTrackerTest::sinceT0)
                .containsExactly("200 acked m2 0", "10000 retry m1 1");
        h.close();
    }

    @Test
    void aCheckpointWritesNoTimerTheWindowsEndStillRegistersIt() throws Exception {
        var h = twoSendsOnTheHeap();
        h.snapshot(1, 1);
        assertThat(h.numKeyedStateEntries()).as("written for the checkpoint").isEqualTo(2);
        assertThat(h.numEventTimeTimers()).as("but no timer yet").isZero();
        // the job goes on: d2's ack within the window, d1's never
        h.processElement(new StreamRecord<>(LongconnEvent.ack(T0 + 300, "m2", "d2"), T0 + 300));
        h.processWatermark(new Watermark(T0 + DeviceLinks.HOLD_MS + 5));
        assertThat(h.numKeyedStateEntries()).as("d1's tracked message").isEqualTo(1);
        assertThat(h.numEventTimeTimers()).as("d1's first retry").isEqualTo(1);
        h.processWatermark(new Watermark(T0 + 10_000));
        assertThat(h.extractOutputValues())
                .extracting(AckTrackerTest::sinceT0)
                .containsExactly("300 acked m2 0", "10000 retry m1 1");
        h.close();
    }

    @Test
    void onScaleOutEachSubtaskRegistersTheTimersOfItsOwnDevices() throws Exception {
        OperatorSubtaskState snap;
        List<String> expected = new ArrayList<>();
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new AckTracker(AckRules.defaults(), TTL, 4, 100),
                        e -> e.deviceId,
                        Types.STRING,
                        128,
                        1,
                        0)) {
            h.open();
            for (int i = 0; i < 8; i++) {
                h.processElement(
                        new StreamRecord<>(LongconnEvent.sent(T0 + i, "m" + i, "d" + i), T0 + i));
                expected.add(10_000 + i + " retry m" + i + " 1");
            }
            h.processWatermark(new Watermark(T0 + 100));
            snap = h.snapshot(1, 1);
            assertThat(h.numEventTimeTimers()).as("the devices are still on the heap").isZero();
        }
        List<String> all = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            OperatorSubtaskState part =
                    AbstractStreamOperatorTestHarness.repartitionOperatorState(
                            snap, 128, 1, 2, subtask);
            try (var h =
                    new KeyedOneInputStreamOperatorTestHarness<>(
                            new AckTracker(AckRules.defaults(), TTL, 4, 100),
                            e -> e.deviceId,
                            Types.STRING,
                            128,
                            2,
                            subtask)) {
                h.initializeState(part);
                h.open();
                h.processWatermark(new Watermark(T0 + 10_010));
                List<String> mine =
                        h.extractOutputValues().stream().map(AckTrackerTest::sinceT0).toList();
                assertThat(mine).hasSizeBetween(1, 7);
                all.addAll(mine);
            }
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aFullHeapWritesItsOldestDevicesFirst() throws Exception {
        var h = harness(AckRules.defaults(), null, 10);
        for (int i = 0; i < 10; i++) {
            h.processElement(
                    new StreamRecord<>(LongconnEvent.sent(T0 + i, "m" + i, "d" + i), T0 + i));
        }
        h.processWatermark(new Watermark(T0 + 100));
        assertThat(h.numKeyedStateEntries()).isZero();
        h.processElement(new StreamRecord<>(LongconnEvent.ack(T0 + 200, "m5", "d5"), T0 + 200));
        h.processWatermark(new Watermark(T0 + 300));
        assertThat(h.numKeyedStateEntries()).as("d0, the oldest of ten").isEqualTo(1);
        assertThat(h.numEventTimeTimers()).isEqualTo(1);
        h.processWatermark(new Watermark(T0 + 20_000));
        assertThat(h.extractOutputValues())
                .filteredOn(a -> a.action.equals(LongconnAction.RETRY) && a.attempt == 1)
                .extracting(a -> a.msgId)
                .containsExactlyInAnyOrder("m0", "m1", "m2", "m3", "m4", "m6", "m7", "m8", "m9");
        h.close();
    }

    @Test
    void retriesAndFallbacksBecomeSendsOnTheirChannels() throws Exception {
        SendRecord send = new SendRecord();
        send.msgId = "m";
        send.uid = "u";
        send.deviceId = "d";
        send.vendor = "longconn";
        send.token = "conn-1";
        send.title = "t";
        send.msgType = "news";
        send.fallback = Fallback.of("huawei", "hw-token");
        LongconnEvent sent = LongconnEvent.sent(T0, "m", "d");
        sent.send = SendBytes.of(send);
        LongconnEvent acked = LongconnEvent.sent(T0, "m2", "d2");
        send.msgId = "m2";
        send.deviceId = "d2";
        acked.send = SendBytes.of(send);
        LongconnEvent noChannel = LongconnEvent.sent(T0, "m3", "d3");
        send.msgId = "m3";
        send.deviceId = "d3";
        send.fallback = null;
        noChannel.send = SendBytes.of(send);
        List<LongconnEvent> trace =
                trace(
                        sent,
                        acked,
                        noChannel,
                        LongconnEvent.ack(T0 + 12_000, "m2", "d2"),
                        LongconnEvent.presence(T0 + 15_000, "d", false, "7.1"),
                        LongconnEvent.presence(T0 + 15_000, "d3", false, "7.1"));
        List<LongconnAction> out = run(AckRules.defaults(), trace, new Random(4), false);
        assertThat(out)
                .extracting(a -> a.action + " " + a.msgId)
                .containsExactly(
                        "retry m", "retry m2", "retry m3", "acked m2", "fallback m", "fallback m3");

        var h = ProcessFunctionTestHarnesses.forProcessFunction(new Deliveries());
        for (LongconnAction a : out) {
            h.processElement(a, a.ts);
        }
        List<SendRecord> sends = h.extractOutputValues();
        assertThat(sends).hasSize(4);
        SendRecord retry = sends.get(0);
        assertThat(retry.vendor).isEqualTo("longconn");
        assertThat(retry.token).isEqualTo("conn-1");
        assertThat(retry.attempt).isEqualTo(1);
        assertThat(retry.fallback).isEqualTo(Fallback.of("huawei", "hw-token"));
        SendRecord fb = sends.get(3);
        assertThat(fb.vendor).isEqualTo("huawei");
        assertThat(fb.token).isEqualTo("hw-token");
        assertThat(fb.fallback).isNull();
        assertThat(fb.attempt).isEqualTo(2);
        assertThat(out.get(0).send.decode().attempt).as("the tracked send is not changed").isNull();

        assertThat(h.getSideOutput(LongconnTags.RECEIPTS))
                .extracting(r -> r.getValue())
                .extracting(r -> r.type + " " + r.msgId + " " + r.uid + " " + r.fallbackVendor)
                .containsExactly(
                        "longconn_retry m u null",
                        "longconn_retry m2 u null",
                        "longconn_retry m3 u null",
                        "longconn_acked m2 u null",
                        "longconn_fallback m u huawei",
                        "longconn_fallback m3 u null");
        assertThat(h.getSideOutput(LongconnTags.UNDELIVERABLE)).hasSize(1);
        Decision d = h.getSideOutput(LongconnTags.UNDELIVERABLE).peek().getValue();
        assertThat(d.decision).isEqualTo("DROP");
        assertThat(d.reason).isEqualTo("undeliverable");
        assertThat(d.code).isEqualTo(19);
        assertThat(d.msgType).isEqualTo("news");
        assertThat(d.uid).isEqualTo("u");
        assertThat(d.deviceId).isEqualTo("d3");
    }

    @Test
    void randomTracesActAsTheContractThroughRestores() throws Exception {
        Random random = new Random(20261124);
        for (int run = 0; run < 60; run++) {
            AckRules rules =
                    new AckRules(
                            1_000L * (1 + random.nextInt(3)),
                            random.nextInt(4),
                            1_000L * (1 + random.nextInt(3)),
                            1_000L * (2 + random.nextInt(12)),
                            random.nextBoolean() ? "7.0" : "7.0.1");
            List<LongconnEvent> trace = randomTrace(random);
            List<String> expected = lines(AckModel.run(rules, trace));
            // a heap of two devices writes them back all the time, one of 100 only at the end of
            // the hold window and at the checkpoint
            int heap = run % 2 == 0 ? 2 : 100;
            List<String> actual = lines(run(rules, trace, random, true, heap));
            assertThat(actual).as("run %d, rules %s", run, rules).isEqualTo(expected);
        }
    }

    private static List<LongconnEvent> randomTrace(Random random) {
        String[] versions = {null, "6.9", "7", "7.0.0", "7.0.1", "7.10", "10.0.0.1"};
        List<LongconnEvent> trace = new ArrayList<>();
        int n = 20 + random.nextInt(60);
        for (int i = 0; i < n; i++) {
            long ts = T0 + 500L * random.nextInt(80);
            String device = "d" + random.nextInt(4);
            String msg = "m" + random.nextInt(6);
            switch (random.nextInt(6)) {
                case 0, 1 -> trace.add(LongconnEvent.sent(ts, msg, device));
                case 2, 3 -> trace.add(LongconnEvent.ack(ts, msg, device));
                default ->
                        trace.add(
                                LongconnEvent.presence(
                                        ts,
                                        device,
                                        random.nextInt(3) > 0,
                                        versions[random.nextInt(versions.length)]));
            }
        }
        return trace(trace.toArray(new LongconnEvent[0]));
    }

    /** Numbers the events in the given order and sorts them by time, as a replay reads a trace. */
    private static List<LongconnEvent> trace(LongconnEvent... events) {
        List<LongconnEvent> trace = new ArrayList<>();
        for (int i = 0; i < events.length; i++) {
            events[i].seq = i + 1;
            trace.add(events[i]);
        }
        trace.sort(
                Comparator.<LongconnEvent>comparingLong(e -> e.ts).thenComparingLong(e -> e.seq));
        return trace;
    }

    /**
     * The tracker over {@code trace}: events arrive shuffled within the watermark's bound, the
     * watermark moves in random steps, checkpoints come at random points, and with {@code restore}
     * the operator is restored from one of them into a new instance.
     */
    static List<LongconnAction> run(
            AckRules rules, List<LongconnEvent> trace, Random random, boolean restore)
            throws Exception {
        return run(rules, trace, random, restore, 2);
    }

    static List<LongconnAction> run(
            AckRules rules, List<LongconnEvent> trace, Random random, boolean restore, int heap)
            throws Exception {
        List<LongconnAction> out = new ArrayList<>();
        List<List<LongconnEvent>> batches = new ArrayList<>();
        for (int i = 0; i < trace.size(); ) {
            int j = Math.min(trace.size(), i + 1 + random.nextInt(6));
            List<LongconnEvent> batch = new ArrayList<>(trace.subList(i, j));
            Collections.shuffle(batch, random);
            batches.add(batch);
            i = j;
        }
        int restoreAt = restore && !batches.isEmpty() ? random.nextInt(batches.size()) : -1;
        var h = harness(rules, null, heap);
        long wm = Long.MIN_VALUE;
        for (int b = 0; b < batches.size(); b++) {
            for (LongconnEvent e : batches.get(b)) {
                h.processElement(
                        new StreamRecord<>(LongconnEventSerializer.INSTANCE.copy(e), e.ts));
                wm = Math.max(wm, e.ts - 1);
            }
            // the watermark lags behind the batch: everything up to the batch's start is final
            long safe = batches.get(b).stream().mapToLong(e -> e.ts).min().getAsLong() - 1;
            h.processWatermark(new Watermark(safe));
            if (b == restoreAt) {
                OperatorSubtaskState snap = h.snapshot(b + 1, 1);
                collect(h, out);
                h.close();
                h = harness(rules, snap, heap);
            } else if (random.nextInt(4) == 0) {
                // a checkpoint the job goes on from
                h.snapshot(b + 1, 1);
            }
        }
        h.processWatermark(new Watermark(Long.MAX_VALUE));
        collect(h, out);
        assertThat(h.getSideOutput(DispatchTags.DEAD_LETTERS)).isNull();
        h.close();
        out.sort(Tracking.ORDER);
        return out;
    }

    private static void collect(
            KeyedOneInputStreamOperatorTestHarness<String, LongconnEvent, LongconnAction> h,
            List<LongconnAction> out) {
        out.addAll(h.extractOutputValues());
        h.getOutput().clear();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, LongconnEvent, LongconnAction>
            harness(AckRules rules, OperatorSubtaskState restoreFrom) throws Exception {
        return harness(rules, restoreFrom, 2);
    }

    /** With room for 4 records in the event-time queue and {@code heap} devices on the heap. */
    private static KeyedOneInputStreamOperatorTestHarness<String, LongconnEvent, LongconnAction>
            harness(AckRules rules, OperatorSubtaskState restoreFrom, int heap) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new AckTracker(rules, TTL, 4, heap), e -> e.deviceId, Types.STRING);
        if (restoreFrom != null) {
            h.initializeState(restoreFrom);
        }
        h.open();
        return h;
    }

    private static List<String> lines(List<LongconnAction> actions) {
        List<String> lines = new ArrayList<>();
        for (LongconnAction a : actions) {
            lines.add(io.pushline.schema.Json.write(a));
        }
        return lines;
    }

    private static String action(long ts, String msgId, String action, int attempt, Long delay) {
        return action(ts, msgId, "d", action, attempt, delay);
    }

    private static String action(
            long ts, String msgId, String deviceId, String action, int attempt, Long delay) {
        return io.pushline.schema.Json.write(
                LongconnAction.of(ts, msgId, deviceId, action, attempt, delay));
    }

    /** An action as "ms since T0, action, msgId, attempt", for comparing timelines. */
    private static String sinceT0(LongconnAction a) {
        return a.ts - T0 + " " + a.action + " " + a.msgId + " " + a.attempt;
    }

    /** m1 to d1 and m2 to d2, both held on the heap (within their window) by a watermark. */
    private static KeyedOneInputStreamOperatorTestHarness<String, LongconnEvent, LongconnAction>
            twoSendsOnTheHeap() throws Exception {
        var h = harness(AckRules.defaults(), null, 100);
        h.processElement(new StreamRecord<>(LongconnEvent.sent(T0, "m1", "d1"), T0));
        h.processElement(new StreamRecord<>(LongconnEvent.sent(T0 + 5, "m2", "d2"), T0 + 5));
        h.processWatermark(new Watermark(T0 + 100));
        return h;
    }
}
