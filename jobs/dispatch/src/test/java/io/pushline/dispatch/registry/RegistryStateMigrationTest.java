package io.pushline.dispatch.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import java.util.stream.Collectors;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Restores registry and uid-index state written by earlier versions (files under {@code state/},
 * written by {@link RegistrySnapshots}): the bindings, and the records that were waiting for the
 * watermark, are handled as if the job had not stopped.
 */
class RegistryStateMigrationTest {
    /**
     * v1: a buffer and an event-time timer per key and time (the earlier RegistryFunction). v2: the
     * ordering queue, one waiting record on the heap and one spilled, both written by the generic
     * POJO serializer under the type's earlier name (DeviceKeyed).
     */
    @ParameterizedTest
    @CsvSource({
        "registry-v1, heap",
        "registry-v1-rocksdb, rocksdb",
        "registry-v2, heap",
        "registry-v2-rocksdb, rocksdb",
        "registry-v1-rocksdb, rocksdb-timers",
        "registry-v2-rocksdb, rocksdb-timers"
    })
    void theRegistryGoesOnFromAnEarlierVersion(String file, String backend) throws Exception {
        try (var h = restored(RegistrySnapshots.registry(), file, backend)) {
            h.processWatermark(40);
            // the push to d1 that waited is resolved against d1's restored binding
            assertThat(h.extractOutputValues())
                    .extracting(d -> d.request.msgId + "/" + d.device.deviceId + "/" + d.device.uid)
                    .containsExactly("m1/d1/u1");
            // the bind of d2 that waited is applied
            assertThat(
                            h.getSideOutput(DispatchTags.REGISTRY_CHANGES).stream()
                                    .map(StreamRecord::getValue)
                                    .map(c -> c.deviceId)
                                    .collect(Collectors.toList()))
                    .containsExactly("d2");
            h.processElement(
                    io.pushline.schema.dispatch.RegistryInput.of(
                            "d2", RegistryOperatorTest.push(50, 9, "m2")),
                    50);
            h.processWatermark(50);
            assertThat(h.extractOutputValues())
                    .extracting(d -> d.request.msgId + "/" + d.device.uid)
                    .containsExactly("m1/u1", "m2/u2");
        }
    }

    @ParameterizedTest
    @CsvSource({
        "uid-index-v1, heap",
        "uid-index-v1-rocksdb, rocksdb",
        "uid-index-v1-rocksdb, rocksdb-timers"
    })
    void theUidIndexGoesOnFromAnEarlierVersion(String file, String backend) throws Exception {
        try (var h = restored(RegistrySnapshots.uidIndex(), file, backend)) {
            h.processWatermark(40);
            assertThat(h.extractOutputValues())
                    .extracting(d -> d.request.msgId + "/" + d.device.deviceId)
                    .containsExactly("m1/d1");
        }
    }

    /**
     * v2: the ordering queue, one waiting request on the heap and one spilled, both written by the
     * generic POJO serializer (before UidKeyed had a serializer of its own).
     */
    @ParameterizedTest
    @CsvSource({
        "uid-index-v2, heap",
        "uid-index-v2-rocksdb, rocksdb",
        "uid-index-v2-rocksdb, rocksdb-timers"
    })
    void theUidIndexQueueGoesOnFromAnEarlierVersion(String file, String backend) throws Exception {
        try (var h = restored(RegistrySnapshots.uidIndex(), file, backend)) {
            h.processWatermark(40);
            assertThat(h.extractOutputValues())
                    .extracting(
                            d ->
                                    d.request.msgId
                                            + "/"
                                            + d.request.ts
                                            + "/"
                                            + d.device.deviceId
                                            + "/"
                                            + d.device.uid)
                    .containsExactly("m1/20/d1/u1", "m3/25/d1/u1");
        }
    }

    /**
     * The harness opened on the snapshot in {@code file}, with the heap or RocksDB backend; {@code
     * rocksdb-timers}: snapshots written with timers on the heap (as the job ran until 2026-11-29)
     * restored with RocksDB keeping the timers, as it does since.
     */
    private static <I> KeyedOneInputStreamOperatorTestHarness<String, I, DevicePush> restored(
            KeyedOneInputStreamOperatorTestHarness<String, I, DevicePush> h,
            String file,
            String backend)
            throws Exception {
        if (backend.equals("rocksdb")) {
            h.setStateBackend(RegistrySnapshots.rocksdb());
        } else if (backend.equals("rocksdb-timers")) {
            h.setStateBackend(
                    RegistrySnapshots.rocksdb(
                            EmbeddedRocksDBStateBackend.PriorityQueueStateType.ROCKSDB));
        }
        h.setup();
        h.initializeState(read(file));
        h.open();
        return h;
    }

    private static OperatorSubtaskState read(String name) throws Exception {
        return OperatorSnapshotUtil.readStateHandle(
                RegistryStateMigrationTest.class
                        .getClassLoader()
                        .getResource("state/" + name + ".snapshot")
                        .getPath());
    }
}
