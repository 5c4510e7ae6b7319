package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.receipts.MetricDelta;
import io.pushline.schema.receipts.MetricPartial;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class PreAggregateTest {
    static final long T = 1_767_225_600_000L;

    @Test
    void sendsTheSumsOfEachMinuteBeforeTheWatermarkStampedWithTheMinute() throws Exception {
        try (var h = new OneInputStreamOperatorTestHarness<>(new PreAggregate())) {
            h.open();
            h.processElement(delta(T + 1_000, "m", MetricDelta.DELIVERED, null, 1_000), T);
            h.processElement(delta(T + 2_000, "m", MetricDelta.DELIVERED, null, 3_000), T);
            h.processElement(delta(T + 3_000, "m", MetricDelta.DROPPED, "quiet_hours", -1), T);
            h.processElement(delta(T + 61_000, "m", MetricDelta.CLICKED, null, -1), T);
            assertThat(h.getOutput()).isEmpty();

            h.processWatermark(new Watermark(T + 500));

            List<Object> out = new ArrayList<>(h.getOutput());
            assertThat(out).hasSize(3);
            assertThat(out.get(2)).isEqualTo(new Watermark(T + 500));
            List<StreamRecord<MetricPartial>> partials = new ArrayList<>();
            for (Object o : out.subList(0, 2)) {
                @SuppressWarnings("unchecked")
                StreamRecord<MetricPartial> r = (StreamRecord<MetricPartial>) o;
                partials.add(r);
            }
            partials.sort((a, b) -> Long.compare(a.getTimestamp(), b.getTimestamp()));
            MetricPartial first = partials.get(0).getValue();
            assertThat(partials.get(0).getTimestamp()).isEqualTo(T);
            assertThat(first.minute).isEqualTo(T);
            assertThat(first.counts.delivered).isEqualTo(2);
            assertThat(first.counts.dropped).isEqualTo(1);
            assertThat(first.counts.drops).containsEntry("quiet_hours", 1L);
            assertThat(first.counts.latencyMax).isEqualTo(3_000);
            assertThat((double) LatencyHistogram.percentile(first.counts.latency, 0.5))
                    .isCloseTo(1_000, org.assertj.core.data.Offset.offset(1_000 / 32.0));
            assertThat(partials.get(1).getTimestamp()).isEqualTo(T + 60_000);
            assertThat(partials.get(1).getValue().counts.clicked).isEqualTo(1);

            // nothing is held after a flush: the next watermark sends nothing new
            h.processWatermark(new Watermark(T + 700));
            assertThat(h.getOutput()).hasSize(4);
        }
    }

    @Test
    void aCheckpointBarrierFlushesSoNothingIsHeldAcrossIt() throws Exception {
        try (var h = new OneInputStreamOperatorTestHarness<>(new PreAggregate())) {
            h.open();
            h.processElement(delta(T, "m", MetricDelta.SENT, null, -1), T);
            h.prepareSnapshotPreBarrier(1);
            assertThat(h.extractOutputValues()).hasSize(1);
            assertThat(h.extractOutputValues().get(0).counts.sent).isEqualTo(1);
        }
    }

    @Test
    void sumsLeaveWithinAFlushIntervalWhenEventTimeStandsStill() throws Exception {
        try (var h = new OneInputStreamOperatorTestHarness<>(new PreAggregate())) {
            h.setProcessingTime(0);
            h.open();
            h.processElement(delta(T, "m", MetricDelta.DELIVERED, null, 10), T);
            h.setProcessingTime(PreAggregate.FLUSH_INTERVAL_MS - 1);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(PreAggregate.FLUSH_INTERVAL_MS);
            assertThat(h.extractOutputValues()).hasSize(1);
            // and again after the next interval
            h.processElement(delta(T, "m", MetricDelta.CLICKED, null, -1), T);
            h.setProcessingTime(2 * PreAggregate.FLUSH_INTERVAL_MS);
            assertThat(h.extractOutputValues()).hasSize(2);
        }
    }

    static MetricDelta delta(long ts, String msgId, byte metric, String detail, long latency) {
        MetricDelta d = MetricDelta.of(ts, msgId, "news", "fcm", metric, detail);
        d.latencyMs = latency;
        return d;
    }
}
