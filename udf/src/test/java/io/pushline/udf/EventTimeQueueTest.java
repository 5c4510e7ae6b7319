package io.pushline.udf;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.gate.SpilledPush;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryState;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The ordering buffer's two tiers (heap, RocksDB spill), its order and its restore. */
class EventTimeQueueTest {
    /**
     * Emits "key:ts:seq" for each record as the watermark releases it, with the key it was handed
     * under. Records are DeviceInfo (deviceId = key, boundTs = ts, updatedTs = seq) only because it
     * is a handy POJO.
     */
    static final class Echo extends EventTimeOrderedOperator<DeviceInfo, String> {
        Echo(int maxOnHeap) {
            super("echo-buffer", DeviceInfo.class, maxOnHeap);
        }

        @Override
        protected String keyOf(DeviceInfo d) {
            return d.deviceId;
        }

        @Override
        protected long tsOf(DeviceInfo d) {
            return d.boundTs;
        }

        @Override
        protected long seqOf(DeviceInfo d) {
            return d.updatedTs;
        }

        @Override
        protected void handle(DeviceInfo d, long ts) {
            // the current key must be the record's: keyed state reads depend on it
            assertThat(getCurrentKey()).isEqualTo(d.deviceId);
            emit(d.deviceId + ":" + d.boundTs + ":" + d.updatedTs, ts);
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
        KeyedOneInputStreamOperatorTestHarness<String, DeviceInfo, String> h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new Echo(max), d -> d.deviceId, Types.STRING, 128, 1, 0);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        return h;
    }

    @Test
    void releasesInTimeThenSequenceOrderAcrossHeapAndSpill() throws Exception {
        try (var h = harness(2)) {
            h.open();
            h.processElement(rec("a", 20, 5), 20);
            h.processElement(rec("a", 10, 4), 10);
            h.processElement(rec("a", 10, 1), 10); // third record: spills to RocksDB
            h.processElement(rec("b", 9, 7), 9); // spills too
            h.processElement(rec("b", 10, 2), 10);
            assertThat(h.extractOutputValues()).isEmpty();
            // what the gauges recordsWaiting and recordsWaitingInRocksDB report
            assertThat(((Echo) h.getOperator()).waiting()).isEqualTo(5);
            assertThat(((Echo) h.getOperator()).waitingOnHeap()).isEqualTo(2);
            h.processWatermark(15);
            assertThat(h.extractOutputValues())
                    .containsExactly("b:9:7", "a:10:1", "b:10:2", "a:10:4");
            h.processWatermark(20);
            assertThat(h.extractOutputValues()).endsWith("a:20:5").hasSize(5);
            assertThat(((Echo) h.getOperator()).waiting()).isZero();
        }
    }

    @Test
    void aLateRecordIsHandledAtTheNextWatermark() throws Exception {
        try (var h = harness(10)) {
            h.open();
            h.processWatermark(100);
            h.processElement(rec("a", 50, 1), 50);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(101);
            assertThat(h.extractOutputValues()).containsExactly("a:50:1");
            assertThat(h.getOutput().stream().filter(o -> o.toString().contains("a:50:1")))
                    .hasSize(1);
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
            h.processElement(rec("c", 10, 9), 10); // joins after the restored ones
            h.processWatermark(11);
            assertThat(h.extractOutputValues())
                    .containsExactly("a:10:1", "b:10:2", "c:10:9", "a:11:3");
        }
    }

    @Test
    void onScaleOutEachSubtaskKeepsOnlyTheRecordsOfItsKeys() throws Exception {
        OperatorSubtaskState snapshot;
        List<String> all = new ArrayList<>();
        try (var h = harness(3)) {
            h.open();
            for (int i = 0; i < 6; i++) {
                h.processElement(rec("k" + i, 10 + i, i), 10 + i); // the last three spill
            }
            snapshot = h.snapshot(1, 100);
        }
        for (int subtask = 0; subtask < 2; subtask++) {
            OperatorSubtaskState part =
                    AbstractStreamOperatorTestHarness.repartitionOperatorState(
                            snapshot, 128, 1, 2, subtask);
            try (var h =
                    new KeyedOneInputStreamOperatorTestHarness<>(
                            new Echo(3), d -> d.deviceId, Types.STRING, 128, 2, subtask)) {
                h.setStateBackend(new EmbeddedRocksDBStateBackend());
                h.initializeState(part);
                h.open();
                h.processWatermark(100);
                List<String> mine = h.extractOutputValues();
                assertThat(mine).hasSizeLessThan(6);
                all.addAll(mine);
            }
        }
        assertThat(all)
                .containsExactlyInAnyOrder(
                        "k0:10:0", "k1:11:1", "k2:12:2", "k3:13:3", "k4:14:4", "k5:15:5");
    }

    @Test
    void moreRecordsThanAChunkSurviveARestoreInOrder() throws Exception {
        int n = 3 * EventTimeQueue.SNAPSHOT_CHUNK + 7;
        int onHeap = EventTimeQueue.SNAPSHOT_CHUNK + 10;
        List<String> expected = new ArrayList<>();
        OperatorSubtaskState snapshot;
        try (var h = harness(onHeap)) {
            h.open();
            // times run backwards, so the queue's order is not the arrival order
            for (int i = 0; i < n; i++) {
                long ts = 10_000 - i / 3;
                h.processElement(rec("k" + i % 50, ts, i), ts);
            }
            snapshot = h.snapshot(1, 100);
        }
        for (int i = n - 1; i >= 0; i--) {
            expected.add("k" + i % 50 + ":" + (10_000 - i / 3) + ":" + i);
        }
        expected.sort(
                java.util.Comparator.comparingLong((String x) -> Long.parseLong(x.split(":")[1]))
                        .thenComparingLong(x -> Long.parseLong(x.split(":")[2])));
        try (var h = harness(onHeap)) {
            h.initializeState(snapshot);
            h.open();
            h.processWatermark(20_000);
            assertThat(h.extractOutputValues()).containsExactlyElementsOf(expected);
        }
    }

    /**
     * What the previous version wrote at a checkpoint: one union list element per waiting record
     * ({@code echo-buffer-heap}) and per spilled record's place ({@code
     * echo-buffer-queue-spilled}), the spilled records in the keyed spill map.
     */
    static final class EarlierLayout extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<DeviceInfo, String> {
        private final int maxOnHeap;
        private transient List<DeviceInfo> onHeap;
        private transient List<SpilledPush> spilled;
        private transient MapState<Long, DeviceInfo> spill;
        private transient long ref;

        EarlierLayout(int maxOnHeap) {
            this.maxOnHeap = maxOnHeap;
        }

        @Override
        public void open() throws Exception {
            super.open();
            onHeap = new ArrayList<>();
            spilled = new ArrayList<>();
            spill =
                    getKeyedStateStore()
                            .getMapState(RegistryState.spill("echo-buffer", DeviceInfo.class));
        }

        @Override
        public void processElement(StreamRecord<DeviceInfo> e) throws Exception {
            DeviceInfo d = e.getValue();
            if (onHeap.size() < maxOnHeap) {
                onHeap.add(d);
            } else {
                spill.put(ref, d);
                spilled.add(new SpilledPush(d.deviceId, d.boundTs, d.updatedTs, ref));
            }
            ref++;
        }

        @Override
        public void snapshotState(StateSnapshotContext ctx) throws Exception {
            super.snapshotState(ctx);
            getOperatorStateBackend()
                    .getUnionListState(RegistryState.waitingOnHeap("echo-buffer", DeviceInfo.class))
                    .update(onHeap);
            getOperatorStateBackend()
                    .getUnionListState(RegistryState.waitingSpilled("echo-buffer"))
                    .update(spilled);
        }
    }

    @Test
    void theEarlierOneRecordPerElementLayoutRestoresAndIsNotRestoredTwice() throws Exception {
        OperatorSubtaskState earlier;
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new EarlierLayout(2), d -> d.deviceId, Types.STRING, 128, 1, 0)) {
            h.setStateBackend(new EmbeddedRocksDBStateBackend());
            h.open();
            h.processElement(rec("a", 11, 3), 11);
            h.processElement(rec("b", 10, 2), 10);
            h.processElement(rec("a", 10, 1), 10); // spilled
            earlier = h.snapshot(1, 100);
        }
        OperatorSubtaskState now;
        try (var h = harness(2)) {
            h.initializeState(earlier);
            h.open();
            h.processElement(rec("c", 12, 9), 12);
            now = h.snapshot(2, 200);
            h.processWatermark(20);
            assertThat(h.extractOutputValues())
                    .containsExactly("a:10:1", "b:10:2", "a:11:3", "c:12:9");
        }
        // the new layout holds them now, and the earlier lists are empty: each comes out once
        try (var h = harness(2)) {
            h.initializeState(now);
            h.open();
            h.processWatermark(20);
            assertThat(h.extractOutputValues())
                    .containsExactly("a:10:1", "b:10:2", "a:11:3", "c:12:9");
        }
    }
}
