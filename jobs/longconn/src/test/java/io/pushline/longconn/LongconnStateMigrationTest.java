package io.pushline.longconn;

import static io.pushline.longconn.LongconnSnapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.longconn.LongconnEvent;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.Test;

/**
 * The tracker restores state written by an earlier version ({@link LongconnSnapshots}): every
 * tracked message keeps its retry, an ack after the restore still stops one.
 */
class LongconnStateMigrationTest {
    @Test
    void theHeldDevicesAnEarlierCheckpointWroteIntoKeyedStateKeepTheirRetries() throws Exception {
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new AckTracker(AckRules.defaults(), Duration.ofDays(1)),
                        e -> e.deviceId,
                        Types.STRING)) {
            h.initializeState(read("longconn-v1.snapshot"));
            h.open();
            long ack = T0 + 2_700;
            h.processElement(new StreamRecord<>(LongconnEvent.ack(ack, "m2", "d2"), ack));
            h.processWatermark(new Watermark(T0 + 15_000));
            assertThat(h.extractOutputValues())
                    .extracting(a -> a.ts - T0 + " " + a.action + " " + a.msgId + " " + a.attempt)
                    .containsExactly("2700 acked m2 0", "10000 retry m3 1", "12500 retry m1 1");
        }
    }

    private static OperatorSubtaskState read(String name) throws Exception {
        return OperatorSnapshotUtil.readStateHandle(
                LongconnStateMigrationTest.class.getResource("/state/" + name).getPath());
    }
}
