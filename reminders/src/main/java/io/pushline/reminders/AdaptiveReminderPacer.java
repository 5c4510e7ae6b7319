package io.pushline.reminders;

import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderChunk;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * The {@link ReminderPacer} of the streaming dispatch job: fired tasks on the first input, the
 * vendor pacers' reports on the second, from which it learns how fast the stages before the gate
 * absorb its pushes. The reports carry no event time: the pacer's event time is its first input's
 * alone, as in the one-input pacer (same state, same uid: a job restores either).
 */
public class AdaptiveReminderPacer extends ReminderPacer
        implements TwoInputStreamOperator<FiredTask, PacingStatus, ReminderChunk> {
    private static final long serialVersionUID = 1L;

    /**
     * @param targetDelayMs the queue in front of the vendor pacers the rate aims at, > 0
     */
    public AdaptiveReminderPacer(int rate, int chunkSize, long catchUpMs, long targetDelayMs) {
        super(rate, chunkSize, true, catchUpMs, targetDelayMs);
        if (targetDelayMs <= 0) {
            throw new IllegalArgumentException("the target delay must be positive");
        }
    }

    @Override
    public void processElement1(StreamRecord<FiredTask> element) {
        processElement(element);
    }

    @Override
    public void processElement2(StreamRecord<PacingStatus> element) {
        report(element.getValue());
    }

    @Override
    public void processWatermark1(Watermark mark) throws Exception {
        processWatermark(mark);
    }

    @Override
    public void processWatermark2(Watermark mark) {}

    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int index) throws Exception {
        if (index == 0) {
            processWatermarkStatus(status);
        }
    }
}
