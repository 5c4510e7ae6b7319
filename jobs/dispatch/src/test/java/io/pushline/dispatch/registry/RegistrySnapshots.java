package io.pushline.dispatch.registry;

import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;

/**
 * Writes the registry's and the uid index's state as this version stores it, for {@link
 * RegistryStateMigrationTest}: run once per state layout and commit the files, e.g.
 *
 * <pre>java -cp ... io.pushline.dispatch.registry.RegistrySnapshots \
 *   jobs/dispatch/src/test/resources/state/registry-v1 [rocksdb]
 * </pre>
 *
 * <p>v1 (written by the RegistryFunction and UidIndexFunction of commit 3a43dcf): records waiting
 * for the watermark in a per-key buffer with one event-time timer per key and time. v2 (commit
 * f3935d7, the registry built with {@code new RegistryOperator(1)} so that one waiting record is
 * spilled): the ordering queue, its records as the generic POJO serializer wrote them, under the
 * name RegistryInput had then (DeviceKeyed). The harnesses below now build the current operators,
 * so a run of this class writes the current layout.
 */
public final class RegistrySnapshots {
    private RegistrySnapshots() {}

    static KeyedOneInputStreamOperatorTestHarness<String, RegistryInput, DevicePush> registry()
            throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new RegistryOperator(), k -> k.deviceId, Types.STRING);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, UidKeyed, DevicePush> uidIndex()
            throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new UidIndexOperator(), k -> k.uid, Types.STRING);
    }

    /**
     * RocksDB with timers on the heap, as deploy/flink-conf and k8s/ configured it until
     * 2026-11-29.
     */
    static EmbeddedRocksDBStateBackend rocksdb() {
        return rocksdb(EmbeddedRocksDBStateBackend.PriorityQueueStateType.HEAP);
    }

    /** RocksDB keeping its timers where {@code timers} says. */
    static EmbeddedRocksDBStateBackend rocksdb(
            EmbeddedRocksDBStateBackend.PriorityQueueStateType timers) {
        EmbeddedRocksDBStateBackend b = new EmbeddedRocksDBStateBackend();
        b.setPriorityQueueStateType(timers);
        return b;
    }

    /**
     * Registry: d1 bound to u1 at 10 and applied; a push to d1 at 20 and a bind of d2 at 30 wait.
     * Uid index: d1 joined u1 at 10 and applied; a request to u1 at 20 waits.
     */
    public static void main(String[] args) throws Exception {
        boolean rocksdb = args.length > 1 && args[1].equals("rocksdb");
        if (args[0].endsWith("uid-index-v2")) {
            uidIndexQueue(args[0] + (rocksdb ? "-rocksdb" : "") + ".snapshot", rocksdb);
            return;
        }
        try (var h = registry()) {
            if (rocksdb) {
                h.setStateBackend(rocksdb());
            }
            h.open();
            h.processElement(RegistryInput.of(RegistryOperatorTest.bind(10, 1, "d1", "u1")), 10);
            h.processWatermark(15);
            h.processElement(RegistryInput.of("d1", RegistryOperatorTest.push(20, 2, "m1")), 20);
            h.processElement(RegistryInput.of(RegistryOperatorTest.bind(30, 3, "d2", "u2")), 30);
            OperatorSubtaskState snapshot = h.snapshot(1, 16);
            OperatorSnapshotUtil.writeStateHandle(
                    snapshot, args[0] + (rocksdb ? "-rocksdb" : "") + ".snapshot");
        }
        try (var h = uidIndex()) {
            if (rocksdb) {
                h.setStateBackend(rocksdb());
            }
            h.open();
            UidKeyed join =
                    UidKeyed.change("u1", "d1", UidIndexOperatorTest.device("d1", "u1"), 10, 1);
            h.processElement(join, 10);
            h.processWatermark(15);
            UidKeyed request = UidKeyed.request("u1", RegistryOperatorTest.push(20, 2, "m1"));
            h.processElement(request, 20);
            OperatorSubtaskState snapshot = h.snapshot(1, 16);
            OperatorSnapshotUtil.writeStateHandle(
                    snapshot,
                    args[0].replace("registry", "uid-index")
                            + (rocksdb ? "-rocksdb" : "")
                            + ".snapshot");
        }
    }

    /**
     * Uid index v2 (commit 21b3649, the ordering queue; its records as the generic POJO serializer
     * wrote them): d1 joined u1 at 10 and applied; requests to u1 at 20 and 25 wait, the first on
     * the heap, the second spilled (at most one record on the heap).
     */
    private static void uidIndexQueue(String file, boolean rocksdb) throws Exception {
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<String, UidKeyed, DevicePush>(
                        new UidIndexOperator(1), k -> k.uid, Types.STRING)) {
            if (rocksdb) {
                h.setStateBackend(rocksdb());
            }
            h.open();
            h.processElement(
                    UidKeyed.change("u1", "d1", UidIndexOperatorTest.device("d1", "u1"), 10, 1),
                    10);
            h.processWatermark(15);
            h.processElement(UidKeyed.request("u1", RegistryOperatorTest.push(20, 2, "m1")), 20);
            h.processElement(UidKeyed.request("u1", RegistryOperatorTest.push(25, 3, "m3")), 25);
            OperatorSnapshotUtil.writeStateHandle(h.snapshot(1, 16), file);
        }
    }
}
