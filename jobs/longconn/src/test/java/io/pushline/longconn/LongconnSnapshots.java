package io.pushline.longconn;

import io.pushline.schema.longconn.LongconnEvent;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;

/**
 * Writes the ack tracker's state as this version stores it, for {@link LongconnStateMigrationTest}:
 * run once per state layout and commit the file, e.g.
 *
 * <pre>java -cp ... io.pushline.longconn.LongconnSnapshots \
 *   jobs/longconn/src/test/resources/state/longconn-v1.snapshot
 * </pre>
 *
 * <p>v1 (commit e849a88): a checkpoint wrote every device held on the heap into the keyed state and
 * listed the ones whose retries had no timer yet ({@code longconn-untimed-devices}). The state: m3
 * sent to d3 at T0 and out of the heap (its retry a timer at T0 + 10 s); m1 to d1 and m2 to d2 at
 * T0 + 2.5 s, still on the heap at the watermark T0 + 2.6 s.
 */
public final class LongconnSnapshots {
    static final long T0 = 1_767_225_600_000L;

    private LongconnSnapshots() {}

    public static void main(String[] args) throws Exception {
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new AckTracker(AckRules.defaults(), Duration.ofDays(1)),
                        e -> e.deviceId,
                        Types.STRING)) {
            h.open();
            h.processElement(new StreamRecord<>(LongconnEvent.sent(T0, "m3", "d3"), T0));
            h.processWatermark(new Watermark(T0 + DeviceLinks.HOLD_MS));
            long t = T0 + 2_500;
            h.processElement(new StreamRecord<>(LongconnEvent.sent(t, "m1", "d1"), t));
            h.processElement(new StreamRecord<>(LongconnEvent.sent(t, "m2", "d2"), t));
            h.processWatermark(new Watermark(T0 + 2_600));
            var snap = h.snapshot(1, 1);
            System.out.println(
                    h.numKeyedStateEntries()
                            + " keyed entries, "
                            + h.numEventTimeTimers()
                            + " timers in the snapshot");
            OperatorSnapshotUtil.writeStateHandle(snap, args[0]);
        }
    }
}
