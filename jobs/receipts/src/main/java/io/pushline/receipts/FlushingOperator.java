package io.pushline.receipts;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * An operator that gathers records in memory and sends what it gathered on ({@link #flush()})
 * before each watermark, watermark status change and checkpoint barrier, every {@link
 * #FLUSH_INTERVAL_MS} and at the end of input. Holds nothing across a checkpoint, so it needs no
 * state; holds nothing while downstream may take its channel for idle, where another channel's
 * watermark could pass it and make what it holds late.
 */
abstract class FlushingOperator<IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputStreamOperator<IN, OUT>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** At most this long between flushes, also when event time stands still. */
    static final long FLUSH_INTERVAL_MS = 200;

    /** Sends on everything gathered and forgets it. */
    protected abstract void flush();

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
}
