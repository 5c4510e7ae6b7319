package io.pushline.receipts;

import io.pushline.schema.receipts.MetricAcc;
import io.pushline.schema.receipts.MetricDelta;
import io.pushline.schema.receipts.MetricPartial;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Adds up the lifecycle's counts per (msgId, msgType, vendor, minute) in memory and sends the sums
 * on, stamped with their minute, before each watermark, watermark status change and checkpoint
 * barrier, every {@link #FLUSH_INTERVAL_MS} and at the end of input: the windows then update their
 * state once per key and flush instead of once per count, and a late count reaches them at once
 * even when event time stands still. Holds nothing across a checkpoint, so it needs no state.
 */
public class PreAggregate extends FlushingOperator<MetricDelta, MetricPartial> {
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
    protected void flush() {
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
