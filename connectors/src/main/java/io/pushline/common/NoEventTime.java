package io.pushline.common;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * For control inputs (rules) that are applied as they arrive: a watermark at the end of time, so a
 * quiet control topic never holds back the event time of the operator it feeds.
 */
public final class NoEventTime<T> implements WatermarkGenerator<T> {
    public static <T> WatermarkStrategy<T> strategy() {
        return WatermarkStrategy.forGenerator(ctx -> new NoEventTime<>());
    }

    @Override
    public void onEvent(T event, long ts, WatermarkOutput output) {}

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        output.emitWatermark(new Watermark(Long.MAX_VALUE));
    }
}
