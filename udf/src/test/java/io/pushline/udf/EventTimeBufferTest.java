package io.pushline.udf;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.registry.DeviceInfo;
import java.util.Comparator;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/** The buffer's two tiers (heap, RocksDB spill) and its restore from a checkpoint. */
class EventTimeBufferTest {
    /**
     * Emits "key:ts:seq" for each record as the watermark releases it. Records are DeviceInfo
     * (deviceId = key, boundTs = ts, updatedTs = seq) only because it is a handy POJO.
     */
    static final class Echo extends KeyedProcessFunction<String, DeviceInfo, String>
            implements CheckpointedFunction {
        private final int maxOnHeap;
        private transient EventTimeBuffer<DeviceInfo> buffer;

        Echo(int maxOnHeap) {
            this.maxOnHeap = maxOnHeap;
        }

        @Override
        public void initializeState(FunctionInitializationContext ctx) throws Exception {
            buffer =
                    new EventTimeBuffer<>(
                            "echo-buffer",
                            DeviceInfo.class,
                            d -> d.deviceId,
                            d -> d.boundTs,
                            Comparator.comparingLong(d -> d.updatedTs),
                            maxOnHeap);
            buffer.initialize(ctx, getRuntimeContext().getTaskInfo());
        }

        @Override
        public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
            buffer.snapshot();
        }

        @Override
        public void processElement(DeviceInfo d, Context ctx, Collector<String> out)
                throws Exception {
            buffer.add(ctx.getCurrentKey(), d, d.boundTs, ctx.timerService());
        }

        @Override
        public void onTimer(long ts, OnTimerContext ctx, Collector<String> out) throws Exception {
            for (DeviceInfo d : buffer.release(ctx.getCurrentKey(), ts)) {
                out.collect(d.deviceId + ":" + d.boundTs + ":" + d.updatedTs);
            }
        }
    }

    static DeviceInfo rec(String key, long ts, long seq) {
        DeviceInfo d = new DeviceInfo();
        d.deviceId = key;
        d.boundTs = ts;
        d.updatedTs = seq;
        return d;
    }

    /** A harness set up but not yet opened, so a test can restore state into it first. */
    static KeyedOneInputStreamOperatorTestHarness<String, DeviceInfo, String> harness(int max)
            throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new Echo(max)), d -> d.deviceId, Types.STRING);
    }

    @Test
    void releasesInTimeThenSequenceOrderAcrossHeapAndSpill() throws Exception {
        try (var h = harness(2)) {
            h.open();
            h.processElement(rec("a", 20, 5), 20);
            h.processElement(rec("a", 10, 4), 10);
            h.processElement(rec("a", 10, 1), 10); // third record: spills to RocksDB
            h.processElement(rec("b", 10, 2), 10);
            h.processWatermark(15);
            assertThat(h.extractOutputValues())
                    .containsExactlyInAnyOrder("a:10:1", "a:10:4", "b:10:2");
            assertThat(h.extractOutputValues().subList(0, 2)).containsExactly("a:10:1", "a:10:4");
            h.processWatermark(20);
            assertThat(h.extractOutputValues()).endsWith("a:20:5");
        }
    }

    @Test
    void waitingRecordsSurviveACheckpointAndRestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(2)) {
            h.open();
            h.processElement(rec("a", 10, 1), 10);
            h.processElement(rec("b", 10, 2), 10);
            h.processElement(rec("a", 11, 3), 11); // spilled
            snapshot = h.snapshot(1, 100);
        }
        try (var h = harness(2)) {
            h.initializeState(snapshot);
            h.open();
            h.processWatermark(11);
            assertThat(h.extractOutputValues())
                    .containsExactlyInAnyOrder("a:10:1", "b:10:2", "a:11:3");
        }
    }
}
