package io.pushline.udf;

import io.pushline.schema.gate.SpilledPush;
import io.pushline.schema.registry.RegistryState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * Holds a keyed operator's records until the watermark passes their event time, then hands them out
 * in (ts, seq, arrival) order. This is what makes every dispatch stage decide as if the input were
 * one trace sorted by time: a bind at t is seen by a push at t' > t, however the topics interleave.
 *
 * <p>One queue per operator subtask, drained when the watermark moves: no timer per record (a timer
 * is a RocksDB write and delete per key and time), and records arrive nearly in order, which {@link
 * WaitingQueue} exploits. Records wait on the heap; past {@code maxOnHeap} of them (a stalled
 * watermark, a backlog) further records go to keyed RocksDB state and only their place stays on the
 * heap, so memory stays bounded. A record that arrives behind the watermark is handed out at the
 * next one.
 *
 * <p>The operator owns the state: it passes the keyed spill map in, and at a checkpoint writes
 * {@link #snapshot} into union operator state ({@link Checkpointed}), which {@link #restore} reads
 * back keeping only the keys its subtask owns.
 */
public final class EventTimeQueue<T> {
    /** Records a subtask keeps on the heap before spilling to RocksDB. */
    public static final int DEFAULT_MAX_ON_HEAP = 200_000;

    /** Where a record belongs: its key and its place in time. */
    public interface Order<T> {
        String key(T record);

        long ts(T record);

        long seq(T record);
    }

    /** A record's place in the queue; its record is null while it waits in RocksDB. */
    public static final class Waiting<T> {
        public final long ts;
        public final long seq;
        public final long ref;
        public final String key;
        private T record;

        Waiting(long ts, long seq, long ref, String key, T record) {
            this.ts = ts;
            this.seq = seq;
            this.ref = ref;
            this.key = key;
            this.record = record;
        }

        /** The record if it waits on the heap, else null. */
        public T onHeap() {
            return record;
        }
    }

    private final WaitingQueue<Waiting<T>> queue = new WaitingQueue<>();
    private final Order<T> order;
    private final KeyContext keys;
    private final MapState<Long, T> spill;
    private final int maxOnHeap;
    private int onHeap;
    private long nextRef;

    /**
     * @param keys the operator, to set the current key for the keyed {@code spill} map
     * @param spill keyed state: spilled records by their reference
     */
    public EventTimeQueue(Order<T> order, KeyContext keys, MapState<Long, T> spill, int maxOnHeap) {
        this.order = order;
        this.keys = keys;
        this.spill = spill;
        this.maxOnHeap = maxOnHeap;
    }

    /** Queues {@code record}; returns its place. */
    public Waiting<T> add(T record) throws Exception {
        long ref = nextRef++;
        String key = order.key(record);
        // the key's hash, while its bytes are still in the CPU's caches: setting the key when the
        // record leaves the queue, long after, would read them from memory (a tenth of the ack
        // tracker's time in pushline bench longconn)
        key.hashCode();
        long ts = order.ts(record);
        long seq = order.seq(record);
        Waiting<T> w;
        if (onHeap < maxOnHeap) {
            w = new Waiting<>(ts, seq, ref, key, record);
            onHeap++;
        } else {
            keys.setCurrentKey(key);
            spill.put(ref, record);
            w = new Waiting<>(ts, seq, ref, key, null);
        }
        queue.add(w, ts, seq, ref);
        return w;
    }

    /**
     * Removes the smallest places whose time is at most {@code maxTs}, up to {@code into.length},
     * into {@code into} in order; returns how many. Their records are then {@link #take}n.
     */
    public int pollUpTo(long maxTs, Waiting<T>[] into) {
        int n = 0;
        Waiting<T> next;
        while (n < into.length && (next = queue.pollUpTo(maxTs)) != null) {
            into[n++] = next;
        }
        return n;
    }

    /** The record of a polled place, its key now the operator's current key. */
    public T take(Waiting<T> w) throws Exception {
        keys.setCurrentKey(w.key);
        T record = w.record;
        if (record == null) {
            record = spill.get(w.ref);
            spill.remove(w.ref);
        } else {
            w.record = null;
            onHeap--;
        }
        return record;
    }

    /** Keys whose key group belongs to this subtask: what to keep of union state on restore. */
    public static Predicate<String> ownedBy(TaskInfo task) {
        int maxParallelism = task.getMaxNumberOfParallelSubtasks();
        int parallelism = task.getNumberOfParallelSubtasks();
        int me = task.getIndexOfThisSubtask();
        return key ->
                KeyGroupRangeAssignment.assignKeyToParallelOperator(
                                key, maxParallelism, parallelism)
                        == me;
    }

    public int size() {
        return queue.size();
    }

    /**
     * The union operator state a queue is checkpointed to: records on the heap and places of
     * spilled ones, in chunks of {@link #SNAPSHOT_CHUNK}, plus the one-element-per-record lists of
     * earlier versions, read on restore and then emptied. Chunks because a checkpoint stream notes
     * its position for every list element, which flushes it: one element per record cost a write to
     * the checkpoint file per waiting record (70% of the ack tracker's checkpoint thread).
     */
    public static final class Checkpointed<T> {
        final ListState<List<T>> records;
        final ListState<List<SpilledPush>> spilled;
        final ListState<T> earlierRecords;
        final ListState<SpilledPush> earlierSpilled;

        public Checkpointed(
                OperatorStateStore store,
                ListStateDescriptor<List<T>> records,
                ListStateDescriptor<List<SpilledPush>> spilled,
                ListStateDescriptor<T> earlierRecords,
                ListStateDescriptor<SpilledPush> earlierSpilled)
                throws Exception {
            this.records = store.getUnionListState(records);
            this.spilled = store.getUnionListState(spilled);
            this.earlierRecords = store.getUnionListState(earlierRecords);
            this.earlierSpilled = store.getUnionListState(earlierSpilled);
        }
    }

    /** Records (and spilled places) per element of the checkpointed lists. */
    static final int SNAPSHOT_CHUNK = 1024;

    /** Writes the records on the heap and the places of the spilled ones, for a checkpoint. */
    public void snapshot(Checkpointed<T> state) throws Exception {
        List<List<T>> records = new ArrayList<>();
        List<List<SpilledPush>> spilled = new ArrayList<>();
        List<T> records1 = null;
        List<SpilledPush> spilled1 = null;
        for (Waiting<T> w : queue) {
            if (w.record != null) {
                if (records1 == null || records1.size() == SNAPSHOT_CHUNK) {
                    records1 = new ArrayList<>(Math.min(SNAPSHOT_CHUNK, onHeap));
                    records.add(records1);
                }
                records1.add(w.record);
            } else {
                if (spilled1 == null || spilled1.size() == SNAPSHOT_CHUNK) {
                    spilled1 = new ArrayList<>();
                    spilled.add(spilled1);
                }
                spilled1.add(new SpilledPush(w.key, w.ts, w.seq, w.ref));
            }
        }
        state.records.update(records);
        state.spilled.update(spilled);
        state.earlierRecords.clear();
        state.earlierSpilled.clear();
    }

    /** Records waiting on the heap; the others wait in RocksDB. */
    public int onHeap() {
        return onHeap;
    }

    /**
     * Restores a {@link #snapshot} (or an earlier version's): union state gives every subtask
     * everything, so only keys that {@code owned} accepts are kept. Spilled places first: their
     * references are keys in the spill map, and records that spill again must get references after
     * them.
     */
    public void restore(Checkpointed<T> state, Predicate<String> owned) throws Exception {
        for (SpilledPush s : state.earlierSpilled.get()) {
            restoreSpilled(s, owned);
        }
        for (List<SpilledPush> chunk : state.spilled.get()) {
            for (SpilledPush s : chunk) {
                restoreSpilled(s, owned);
            }
        }
        for (T record : state.earlierRecords.get()) {
            restoreRecord(record, owned);
        }
        for (List<T> chunk : state.records.get()) {
            for (T record : chunk) {
                restoreRecord(record, owned);
            }
        }
        state.earlierRecords.clear();
        state.earlierSpilled.clear();
    }

    private void restoreSpilled(SpilledPush s, Predicate<String> owned) {
        if (owned.test(s.deviceId)) {
            queue.add(new Waiting<>(s.ts, s.seq, s.ref, s.deviceId, null), s.ts, s.seq, s.ref);
            nextRef = Math.max(nextRef, s.ref + 1);
        }
    }

    private void restoreRecord(T record, Predicate<String> owned) throws Exception {
        if (owned.test(order.key(record))) {
            add(record);
        }
    }

    /**
     * Restores the records an earlier layout (a buffer per key, {@code name}) spilled: per key,
     * lists of records by time in a keyed map, and the keys that had any in operator state. They
     * join the queue and the old state is cleared.
     */
    public void restoreLegacy(
            OperatorStateStore operatorState,
            KeyedStateStore keyedState,
            String name,
            Class<T> type,
            Predicate<String> owned)
            throws Exception {
        ListState<String> spilledKeys =
                operatorState.getUnionListState(RegistryState.bufferSpilledKeys(name));
        MapState<Long, List<T>> legacy = keyedState.getMapState(RegistryState.buffer(name, type));
        for (String key : spilledKeys.get()) {
            if (owned.test(key)) {
                keys.setCurrentKey(key);
                List<T> records = new ArrayList<>();
                for (List<T> atTs : legacy.values()) {
                    records.addAll(atTs);
                }
                legacy.clear();
                records.sort(Comparator.comparingLong(order::seq));
                for (T record : records) {
                    add(record);
                }
            }
        }
        spilledKeys.clear();
    }
}
