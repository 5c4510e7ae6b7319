package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeviceEvent;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricDelta;
import io.pushline.schema.receipts.ReceiptEvent;
import io.pushline.schema.receipts.ReceiptTags;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

class LifecycleFunctionTest {
    static final long T = 1_767_225_600_000L;

    @Test
    void countsEachStepOnceWithTheDecisionsMsgTypeAndTheLatencyFromThePush() throws Exception {
        try (var h = harness(null)) {
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            h.processElement(receipt(ReceiptEvent.SENT, "m", "d1", T + 1_000), T + 1_000);
            h.processElement(receipt(ReceiptEvent.DELIVERED, "m", "d1", T + 3_000), T + 3_000);
            h.processElement(receipt(ReceiptEvent.DELIVERED, "m", "d1", T + 9_000), T + 9_000);
            h.processElement(receipt(ReceiptEvent.CLICKED, "m", "d1", T + 60_000), T + 60_000);

            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out.stream().map(d -> d.metric))
                    .containsExactly(
                            MetricDelta.PASSED,
                            MetricDelta.SENT,
                            MetricDelta.DELIVERED,
                            MetricDelta.CLICKED);
            assertThat(out).allMatch(d -> d.msgType.equals("news") && d.vendor.equals("fcm"));
            assertThat(out.get(2).latencyMs).isEqualTo(3_000);
            assertThat(out.get(2).ts).isEqualTo(T + 3_000);
            // the repeated delivery changed nothing: four lifecycle versions, not five
            List<Lifecycle> versions = side(h, ReceiptTags.LIFECYCLE);
            assertThat(versions).hasSize(4);
            Lifecycle last = versions.get(3);
            assertThat(last.deliveredAt).isEqualTo(T + 3_000);
            assertThat(last.status()).isEqualTo(Lifecycle.CLICKED);
        }
    }

    @Test
    void aReadInTheInboxCountsOncePerUidWithoutWaitingForADecision() throws Exception {
        try (var h = harness(null)) {
            ReceiptEvent read = inboxRead("m", "u1", T + 5_000);
            h.processElement(read, read.ts);
            h.processElement(inboxRead("m", "u1", T + 9_000), T + 9_000); // read again
            h.processElement(inboxRead("m", "u2", T + 6_000), T + 6_000);
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out.stream().map(d -> d.metric))
                    .containsExactly(
                            MetricDelta.INBOX_READ, MetricDelta.INBOX_READ, MetricDelta.PASSED);
            assertThat(out.get(0).vendor).isEqualTo("inbox");
            assertThat(out.get(0).ts).isEqualTo(T + 5_000);
            assertThat(h.numEventTimeTimers()).isZero();
        }
    }

    @Test
    void longConnectionReportsCountEachRetryOnceAndTheCompensationOfALateAck() throws Exception {
        try (var h = harness(null)) {
            // two retries before the decision arrives, one repeated (a replayed report)
            h.processElement(longconn("retry", "m", "d1", T + 10_000, 1, 10_000), T + 10_000);
            h.processElement(longconn("retry", "m", "d1", T + 20_000, 2, 10_000), T + 20_000);
            h.processElement(longconn("retry", "m", "d1", T + 10_000, 1, 10_000), T + 10_000);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            h.processElement(longconn("retry", "m", "d1", T + 30_000, 3, 10_000), T + 30_000);
            h.processElement(longconn("acked", "m", "d1", T + 33_000, 3, 33_000), T + 33_000);
            h.processElement(longconn("acked", "m", "d1", T + 34_000, 3, 34_000), T + 34_000);
            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out.stream().map(d -> d.metric))
                    .containsExactly(
                            MetricDelta.PASSED,
                            MetricDelta.LC_RETRY,
                            MetricDelta.LC_RETRY,
                            MetricDelta.LC_RETRY,
                            MetricDelta.LC_ACKED);
            assertThat(out.subList(1, 4).stream().map(d -> d.ts))
                    .containsExactly(T + 10_000, T + 20_000, T + 30_000);
            assertThat(out.get(4).latencyMs).isEqualTo(33_000);
            Lifecycle l =
                    side(h, ReceiptTags.LIFECYCLE).get(side(h, ReceiptTags.LIFECYCLE).size() - 1);
            assertThat(l.lcRetries).isEqualTo(3);
            assertThat(l.lcRetryAt).containsExactly(T + 10_000, T + 20_000, T + 30_000);
            assertThat(l.lcCompensationMs).isEqualTo(33_000);
            assertThat(l.status()).isEqualTo(Lifecycle.DELIVERED);
        }
    }

    @Test
    void anAckWithoutRetriesHasNoCompensationAndAFallbackNamesItsChannel() throws Exception {
        try (var h = harness(null)) {
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            h.processElement(longconn("acked", "m", "d1", T + 900, 0, 900), T + 900);
            h.processElement(decision("m", "d2", "PASS", null, 0, T), T);
            ReceiptEvent fb = longconn("fallback", "m", "d2", T + 10_000, 1, 10_000);
            fb.fallbackVendor = "huawei";
            h.processElement(fb, T + 10_000);
            h.processElement(decision("m", "d3", "PASS", null, 0, T), T);
            h.processElement(longconn("fallback", "m", "d3", T + 10_000, 1, 10_000), T + 10_000);
            h.processElement(longconn("give_up", "m", "d3", T + 99_000, 4, 50_000), T + 99_000);
            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out.get(1).metric).isEqualTo(MetricDelta.LC_ACKED);
            assertThat(out.get(1).latencyMs).isEqualTo(-1);
            assertThat(
                            out.stream()
                                    .filter(d -> d.metric == MetricDelta.LC_FALLBACK)
                                    .map(d -> d.detail))
                    .containsExactly("huawei", "undeliverable");
            assertThat(out.get(out.size() - 1).metric).isEqualTo(MetricDelta.LC_GIVE_UP);
        }
    }

    @Test
    void receiptsBeforeTheirDecisionWaitForItsMsgType() throws Exception {
        try (var h = harness(null)) {
            h.processElement(receipt(ReceiptEvent.DELIVERED, "m", "d1", T + 5_000), T + 5_000);
            h.processElement(receipt(ReceiptEvent.SENT, "m", "d1", T + 2_000), T + 2_000);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(h.numEventTimeTimers()).isEqualTo(1);

            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);

            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out.stream().map(d -> d.metric))
                    .containsExactly(MetricDelta.PASSED, MetricDelta.SENT, MetricDelta.DELIVERED);
            assertThat(out).allMatch(d -> d.msgType.equals("news"));
            assertThat(out.get(1).ts).isEqualTo(T + 2_000);
            assertThat(out.get(2).latencyMs).isEqualTo(5_000);
            // the timer finds nothing waiting any more
            h.processWatermark(T + 3_600_000);
            assertThat(h.extractOutputValues()).hasSize(3);
        }
    }

    @Test
    void receiptsWhoseDecisionNeverComesCountAsUnknownAfterTheWait() throws Exception {
        try (var h = harness(null)) {
            h.processElement(receipt(ReceiptEvent.DELIVERED, "m", "d1", T), T);
            h.processWatermark(T + 599_999);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(T + 600_000);
            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).msgType).isEqualTo(LifecycleFunction.UNKNOWN);
            assertThat(out.get(0).latencyMs).isEqualTo(-1);
            // a decision after all counts itself only
            h.processElement(decision("m", "d1", "PASS", null, 0, T - 1_000), T - 1_000);
            assertThat(h.extractOutputValues().stream().map(d -> d.metric))
                    .containsExactly(MetricDelta.DELIVERED, MetricDelta.PASSED);
        }
    }

    @Test
    void anInvalidTokenUnbindsTheDeviceOnce() throws Exception {
        try (var h = harness(null)) {
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            ReceiptEvent invalid = receipt(ReceiptEvent.TOKEN_INVALID, "m", "d1", T + 900);
            invalid.token = "tok-1";
            h.processElement(invalid, T + 900);
            h.processElement(receipt(ReceiptEvent.TOKEN_INVALID, "m", "d1", T + 950), T + 950);
            List<DeviceEvent> unbinds = side(h, ReceiptTags.UNBIND);
            assertThat(unbinds).hasSize(1);
            assertThat(unbinds.get(0).type).isEqualTo(DeviceEvent.UNBIND);
            assertThat(unbinds.get(0).deviceId).isEqualTo("d1");
            // the registry unbinds only if d1 is still bound with this token
            assertThat(unbinds.get(0).token).isEqualTo("tok-1");
            assertThat(unbinds.get(0).ts).isEqualTo(T + 900);
            assertThat(h.extractOutputValues().get(1).metric).isEqualTo(MetricDelta.TOKEN_INVALID);
        }
    }

    @Test
    void aPassThePacerExpiredEndsAsDroppedExpired() throws Exception {
        try (var h = harness(null)) {
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            h.processElement(decision("m", "d1", "DROP", "expired", 17, T), T);
            h.processElement(decision("m", "d1", "DROP", "expired", 17, T), T);
            List<MetricDelta> out = h.extractOutputValues();
            assertThat(out.stream().map(d -> d.metric + ":" + d.detail))
                    .containsExactly(
                            MetricDelta.PASSED + ":null", MetricDelta.DROPPED + ":expired");
            Lifecycle l = side(h, ReceiptTags.LIFECYCLE).get(1);
            assertThat(Lifecycle.statusName(l.status())).isEqualTo("dropped:expired");
            assertThat(l.decidedAt).isEqualTo(T);
        }
    }

    @Test
    void aDropWithoutADeviceIsKeptUnderItsUidAndNeverUnbinds() throws Exception {
        try (var h = harness(null)) {
            h.processElement(decision("m", "uid:u9", "DROP", "no_device", 10, T), T);
            MetricDelta d = h.extractOutputValues().get(0);
            assertThat(d.vendor).isEqualTo(LifecycleFunction.NO_VENDOR);
            assertThat(d.detail).isEqualTo("no_device");
            assertThat(side(h, ReceiptTags.UNBIND)).isEmpty();
        }
    }

    @Test
    void aRestoredLifecycleStillKnowsWhatWasCounted() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(null)) {
            h.processElement(decision("m", "d1", "PASS", null, 0, T), T);
            h.processElement(receipt(ReceiptEvent.DELIVERED, "m", "d1", T + 2_000), T + 2_000);
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(snapshot)) {
            h.processElement(receipt(ReceiptEvent.DELIVERED, "m", "d1", T + 4_000), T + 4_000);
            h.processElement(receipt(ReceiptEvent.CLICKED, "m", "d1", T + 5_000), T + 5_000);
            assertThat(h.extractOutputValues().stream().map(d -> d.metric))
                    .containsExactly(MetricDelta.CLICKED);
        }
    }

    static KeyedOneInputStreamOperatorTestHarness<String, ReceiptEvent, MetricDelta> harness(
            OperatorSubtaskState restore) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(
                                new LifecycleFunction(Duration.ofDays(3), Duration.ofMinutes(10))),
                        ReceiptEvent::lifecycleKey,
                        Types.STRING);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    @SuppressWarnings("unchecked")
    static <T> List<T> side(OneInputStreamOperatorTestHarness<?, ?> h, OutputTag<T> tag) {
        var queue = h.getSideOutput(tag);
        if (queue == null) {
            return List.of();
        }
        return queue.stream()
                .map(r -> ((StreamRecord<T>) r).getValue())
                .collect(Collectors.toList());
    }

    static ReceiptEvent decision(
            String msgId, String deviceId, String decision, String reason, int code, long ts) {
        ReceiptEvent e = new ReceiptEvent();
        e.kind = ReceiptEvent.DECISION;
        e.msgId = msgId;
        e.deviceId = deviceId;
        e.uid = "u1";
        e.vendor = deviceId.startsWith("uid:") ? null : "fcm";
        e.msgType = "news";
        e.decision = decision;
        e.reason = reason;
        e.code = code;
        e.ts = ts;
        return e;
    }

    static ReceiptEvent inboxRead(String msgId, String uid, long ts) {
        return (ReceiptEvent)
                io.pushline.format.ReceiptParser.parse(
                        io.pushline.schema.Topics.RECEIPTS,
                        "{\"ts\":"
                                + ts
                                + ",\"type\":\"inbox_read\",\"msgId\":\""
                                + msgId
                                + "\",\"uid\":\""
                                + uid
                                + "\"}",
                        "0-0");
    }

    static ReceiptEvent longconn(
            String type, String msgId, String deviceId, long ts, int attempt, long delayMs) {
        Object e =
                io.pushline.format.ReceiptParser.parse(
                        io.pushline.schema.Topics.RECEIPTS,
                        "{\"ts\":"
                                + ts
                                + ",\"type\":\"longconn_"
                                + type
                                + "\",\"msgId\":\""
                                + msgId
                                + "\",\"deviceId\":\""
                                + deviceId
                                + "\",\"attempt\":"
                                + attempt
                                + ",\"delayMs\":"
                                + delayMs
                                + "}",
                        "0-0");
        assertThat(((ReceiptEvent) e).dead).isNull();
        return (ReceiptEvent) e;
    }

    static ReceiptEvent receipt(byte kind, String msgId, String deviceId, long ts) {
        ReceiptEvent e = new ReceiptEvent();
        e.kind = kind;
        e.msgId = msgId;
        e.deviceId = deviceId;
        e.vendor = "fcm";
        e.ts = ts;
        return e;
    }
}
