package io.pushline.receipts;

import io.pushline.schema.receipts.Lifecycle;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * Keeps only the newest version of each changed lifecycle until the next watermark, watermark
 * status change, checkpoint barrier, {@link #FLUSH_INTERVAL_MS} or end of input, then sends those
 * on: a message's decision, sent and delivered often land between two watermarks, and the table
 * needs only the last of them. Runs right after the lifecycle operator (same subtask, same keys),
 * so nothing is reordered across keys that matters.
 */
public class LatestLifecycle extends AbstractStreamOperator<Lifecycle>
        implements OneInputStreamOperator<Lifecycle, Lifecycle>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private transient Map<String, Lifecycle> changed;

    @Override
    public void processElement(StreamRecord<Lifecycle> element) {
        if (changed == null) {
            changed = new LinkedHashMap<>();
        }
        Lifecycle l = element.getValue();
        changed.put(l.msgId + '\0' + l.deviceId, l);
    }

    /** At most this long between flushes, also when event time stands still. */
    static final long FLUSH_INTERVAL_MS = 200;

    @Override
    public void open() throws Exception {
        super.open();
        scheduleFlush();
    }

    private void scheduleFlush() {
        ProcessingTimeService time = getProcessingTimeService();
        time.registerTimer(
                time.getCurrentProcessingTime() + FLUSH_INTERVAL_MS,
                t -> {
                    flush();
                    scheduleFlush();
                });
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    /**
     * Nothing may wait here while downstream ignores this channel as idle: another channel's
     * watermark could pass it and make it late.
     */
    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        flush();
        super.processWatermarkStatus(status);
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
        if (changed == null || changed.isEmpty()) {
            return;
        }
        StreamRecord<Lifecycle> record = new StreamRecord<>(null);
        for (Lifecycle l : changed.values()) {
            output.collect(record.replace(l));
        }
        changed.clear();
    }
}
