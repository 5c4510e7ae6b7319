package io.pushline.dispatch.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Decision;
import java.util.List;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Restores gate state written by earlier versions (files under {@code state/}, written by {@link
 * GateSnapshots}) and checks that the gate goes on deciding from it: the memory of passes and the
 * push that was waiting for the watermark. A change to GateState, the buffer or the state names
 * that breaks savepoints fails here.
 */
class GateStateMigrationTest {
    /**
     * v1: timers and a buffer per device, GateState by the generic POJO serializer; v2: one queue
     * per subtask, GateState by GateStateSerializer (strings in StringValue's form); v3: strings as
     * UTF-8. Each as written by the heap backend and by RocksDB (where restoring v1 and v2 rewrites
     * the state with the current serializer).
     */
    @ParameterizedTest
    @CsvSource({
        "state/gate-v1.snapshot, heap",
        "state/gate-v1-rocksdb.snapshot, rocksdb",
        "state/gate-v2.snapshot, heap",
        "state/gate-v2-rocksdb.snapshot, rocksdb",
        "state/gate-v3.snapshot, heap",
        "state/gate-v3-rocksdb.snapshot, rocksdb"
    })
    void restoresStateOfAnEarlierVersion(String resource, String backend) throws Exception {
        var snapshot =
                OperatorSnapshotUtil.readStateHandle(
                        GateStateMigrationTest.class
                                .getClassLoader()
                                .getResource(resource)
                                .getPath());
        try (var h = GateSnapshots.harness()) {
            if (backend.equals("rocksdb")) {
                h.setStateBackend(new EmbeddedRocksDBStateBackend());
            }
            h.setup();
            h.initializeState(snapshot);
            h.open();
            // The push to d1 that waited in the buffer is decided against d1's restored memory.
            h.processBothWatermarks(new Watermark(GateSnapshots.T0 + 10 * GateSnapshots.MIN));
            // d2 still remembers m1's copy for dedupe.
            h.processElement1(
                    io.pushline.schema.dispatch.DevicePush.of(
                            GateHarness.push(
                                    GateSnapshots.T0 + 120 * GateSnapshots.MIN,
                                    "m3",
                                    "news",
                                    null,
                                    "Hello"),
                            GateHarness.device("d2", "u2", "UTC")),
                    GateSnapshots.T0 + 120 * GateSnapshots.MIN);
            h.processBothWatermarks(new Watermark(GateSnapshots.T0 + 120 * GateSnapshots.MIN));
            List<Decision> out = h.extractOutputValues();
            assertThat(out)
                    .extracting(
                            d ->
                                    d.msgId
                                            + "/"
                                            + d.deviceId
                                            + "/"
                                            + (d.isPass() ? "PASS" : d.reason))
                    .containsExactly("m2/d1/min_interval", "m3/d2/duplicate");
        }
    }
}
