package io.pushline.receipts;

import io.pushline.schema.receipts.MetricAcc;
import io.pushline.schema.receipts.MetricDelta;
import io.pushline.schema.receipts.MetricPartial;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Adds up the lifecycle's counts per (msgId, msgType, vendor, minute) in memory and sends the sums
 * on before each watermark, checkpoint barrier and at the end of input, stamped with their minute:
 * the windows then update their state once per key and watermark instead of once per count. Holds
 * nothing across a checkpoint, so it needs no state of its own.
 */
public class PreAggregate extends AbstractStreamOperator<MetricPartial>
        implements OneInputStreamOperator<MetricDelta, MetricPartial>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final long MINUTE = 60_000L;

    private final MetricAggregate add = new MetricAggregate();
    private transient Map<Slot, MetricAcc> open;

    @Override
    public void processElement(StreamRecord<MetricDelta> element) {
        if (open == null) {
            open = new HashMap<>();
        }
        MetricDelta d = element.getValue();
        Slot slot = new Slot(d.key(), Math.floorDiv(d.ts, MINUTE) * MINUTE);
        add.add(d, open.computeIfAbsent(slot, s -> add.createAccumulator()));
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() {
        flush();
    }

    private void flush() {
        if (open == null || open.isEmpty()) {
            return;
        }
        StreamRecord<MetricPartial> record = new StreamRecord<>(null);
        for (Map.Entry<Slot, MetricAcc> e : open.entrySet()) {
            Slot s = e.getKey();
            output.collect(
                    record.replace(new MetricPartial(s.key, s.minute, e.getValue()), s.minute));
        }
        open.clear();
    }

    private record Slot(String key, long minute) {}
}
