package io.pushline.dispatch;

import io.pushline.schema.ParsedRecord;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.pacing.PacingStatus;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * The {@link Scheduler} with the vendor pacers' reports as a second input (broadcast to every
 * subtask), from which its release rate learns what the stages before the gate absorb. The reports
 * carry no event time: the operator's event time is its first input's alone, so its timers, state
 * and uid are the one-input scheduler's (a job restores either).
 */
public class AdaptiveScheduleOperator
        extends KeyedProcessOperator<String, ParsedRecord, RegistryInput>
        implements TwoInputStreamOperator<ParsedRecord, PacingStatus, RegistryInput> {
    private static final long serialVersionUID = 1L;

    private transient long inputWatermark = Long.MIN_VALUE;

    public AdaptiveScheduleOperator(Scheduler scheduler) {
        super(scheduler);
    }

    @Override
    public void processElement1(StreamRecord<ParsedRecord> element) throws Exception {
        processElement(element);
    }

    @Override
    public void processElement2(StreamRecord<PacingStatus> element) {
        ((Scheduler) userFunction)
                .report(
                        element.getValue(),
                        getProcessingTimeService().getCurrentProcessingTime(),
                        inputWatermark);
    }

    @Override
    public void processWatermark1(Watermark mark) throws Exception {
        inputWatermark = Math.max(inputWatermark, mark.getTimestamp());
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
