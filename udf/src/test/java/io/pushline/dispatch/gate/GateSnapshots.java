package io.pushline.dispatch.gate;

import io.pushline.schema.Decision;
import io.pushline.schema.dispatch.DevicePush;
import java.time.Duration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;

/**
 * Writes the gate's state as this version of Pushline stores it, for {@link
 * GateStateMigrationTest}: run once per state schema version and commit the file, e.g.
 *
 * <pre>java -cp udf/target/test-classes:udf/target/classes:$(cat cp.txt) \
 *   io.pushline.dispatch.gate.GateSnapshots udf/src/test/resources/state/gate-v2.snapshot [rocksdb]
 * </pre>
 *
 * <p>v1: per-device timers and buffer, POJO-serialized GateState; v2: the subtask-wide queue of
 * GateOperator and GateStateSerializer; v3: strings of the compact serializers as UTF-8 (wire form
 * 2), and the waiting push has a non-ASCII title.
 */
public final class GateSnapshots {
    static final String RULES = "minInterval: {period: 1h}\ndedupe: {window: 24h}";
    static final long T0 = 1_767_225_600_000L;
    static final long MIN = 60_000L;

    private GateSnapshots() {}

    static KeyedTwoInputStreamOperatorTestHarness<String, DevicePush, String, Decision> harness()
            throws Exception {
        return GateHarness.harness(new GateOperator(RULES, Duration.ofDays(8)));
    }

    /** d1 and d2 passed m1 at T0; a push to d1 at T0 + 10 min waits for the watermark. */
    public static void main(String[] args) throws Exception {
        try (var h = harness()) {
            if (args.length > 1 && args[1].equals("rocksdb")) {
                h.setStateBackend(new EmbeddedRocksDBStateBackend());
            }
            h.open();
            h.processElement1(
                    DevicePush.of(
                            GateHarness.push(T0, "m1", "news", null, "Hello"),
                            GateHarness.device("d1", "u1", "UTC")),
                    T0);
            h.processElement1(
                    DevicePush.of(
                            GateHarness.push(T0, "m1", "news", null, "Hello"),
                            GateHarness.device("d2", "u2", "UTC")),
                    T0);
            h.processBothWatermarks(new Watermark(T0));
            h.processElement1(
                    DevicePush.of(
                            GateHarness.push(T0 + 10 * MIN, "m2", "news", null, "今晚 Other"),
                            GateHarness.device("d1", "u1", "UTC")),
                    T0 + 10 * MIN);
            OperatorSubtaskState snapshot = h.snapshot(1, T0);
            OperatorSnapshotUtil.writeStateHandle(snapshot, args[0]);
        }
    }
}
