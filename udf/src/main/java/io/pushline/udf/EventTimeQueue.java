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
 * {@link #snapshot} into union operator state, which {@link #restore} reads back keeping only the
 * keys its subtask owns.
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

    /** Writes the records on the heap and the places of the spilled ones, for a checkpoint. */
    public void snapshot(ListState<T> onHeapState, ListState<SpilledPush> spilledState)
            throws Exception {
        List<T> records = new ArrayList<>(onHeap);
        List<SpilledPush> spilled = new ArrayList<>();
        for (Waiting<T> w : queue) {
            if (w.record != null) {
                records.add(w.record);
            } else {
                spilled.add(new SpilledPush(w.key, w.ts, w.seq, w.ref));
            }
        }
        onHeapState.update(records);
        spilledState.update(spilled);
    }

    /**
     * Restores a {@link #snapshot}: union state gives every subtask everything, so only keys that
     * {@code owned} accepts are kept. Spilled places first: their references are keys in the spill
     * map, and records that spill again must get references after them.
     */
    public void restore(
            Iterable<T> onHeapRecords, Iterable<SpilledPush> spilled, Predicate<String> owned)
            throws Exception {
        for (SpilledPush s : spilled) {
            if (owned.test(s.deviceId)) {
                queue.add(new Waiting<>(s.ts, s.seq, s.ref, s.deviceId, null), s.ts, s.seq, s.ref);
                nextRef = Math.max(nextRef, s.ref + 1);
            }
        }
        for (T record : onHeapRecords) {
            if (owned.test(order.key(record))) {
                add(record);
            }
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
