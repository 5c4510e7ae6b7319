package io.pushline.udf;

import io.pushline.schema.Json;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.registry.RegistryState;
import java.util.function.Predicate;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * A keyed one-input stage that handles its records in event-time order: each waits in an {@link
 * EventTimeQueue} until the watermark passes its time, then {@link #handle} runs with the record's
 * key as the current key, so keyed state reads and writes are the key's. Outputs carry the record's
 * time as their timestamp.
 *
 * <p>The queue's state is named after {@code name}, and a savepoint of an earlier layout (a record
 * per list element, or the per-key buffer of the same name with timers and a keyed map) restores
 * into it.
 */
public abstract class EventTimeOrderedOperator<IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputStreamOperator<IN, OUT> {
    private static final long serialVersionUID = 1L;
    private static final int CHUNK = 64;

    private final String name;
    private final Class<IN> type;
    private final int maxOnHeap;

    private transient EventTimeQueue<IN> queue;
    private transient EventTimeQueue.Checkpointed<IN> checkpointed;
    private transient EventTimeQueue.Waiting<IN>[] chunk;
    private transient StreamRecord<OUT> out;
    private transient Counter failureCount;

    protected EventTimeOrderedOperator(String name, Class<IN> type, int maxOnHeap) {
        this.name = name;
        this.type = type;
        this.maxOnHeap = maxOnHeap;
    }

    protected abstract String keyOf(IN record);

    protected abstract long tsOf(IN record);

    protected abstract long seqOf(IN record);

    /** Handles {@code record}, whose time the watermark has passed, under its key. */
    protected abstract void handle(IN record, long ts) throws Exception;

    @Override
    @SuppressWarnings("unchecked")
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        EventTimeQueue.Order<IN> order =
                new EventTimeQueue.Order<>() {
                    @Override
                    public String key(IN r) {
                        return keyOf(r);
                    }

                    @Override
                    public long ts(IN r) {
                        return tsOf(r);
                    }

                    @Override
                    public long seq(IN r) {
                        return seqOf(r);
                    }
                };
        queue =
                new EventTimeQueue<>(
                        order,
                        this,
                        getKeyedStateStore().getMapState(RegistryState.spill(name, type)),
                        maxOnHeap);
        checkpointed =
                new EventTimeQueue.Checkpointed<>(
                        ctx.getOperatorStateStore(),
                        RegistryState.waitingOnHeapChunks(name, type),
                        RegistryState.waitingSpilledChunks(name),
                        RegistryState.waitingOnHeap(name, type),
                        RegistryState.waitingSpilled(name));
        chunk = new EventTimeQueue.Waiting[CHUNK];
        if (!ctx.isRestored()) {
            return;
        }
        Predicate<String> owned = EventTimeQueue.ownedBy(getRuntimeContext().getTaskInfo());
        queue.restore(checkpointed, owned);
        queue.restoreLegacy(ctx.getOperatorStateStore(), getKeyedStateStore(), name, type, owned);
    }

    @Override
    public void open() throws Exception {
        super.open();
        LegacyTimers.claim((name, ns, target) -> getInternalTimerService(name, ns, target));
        out = new StreamRecord<>(null);
        // how far behind the watermark a stage's input piles up, and how much of it went to RocksDB
        getMetricGroup().gauge("recordsWaiting", this::waiting);
        getMetricGroup().gauge("recordsWaitingInRocksDB", () -> waiting() - waitingOnHeap());
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        queue.add(element.getValue());
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        int n;
        do {
            n = queue.pollUpTo(mark.getTimestamp(), chunk);
            for (int i = 0; i < n; i++) {
                EventTimeQueue.Waiting<IN> w = chunk[i];
                chunk[i] = null;
                beforeHandling(w.ts);
                IN record = queue.take(w);
                try {
                    handle(record, w.ts);
                } catch (Throwable t) {
                    failed(record, w.ts, t);
                }
            }
        } while (n == CHUNK);
        beforeWatermark(mark.getTimestamp());
        super.processWatermark(mark);
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        queue.snapshot(checkpointed);
    }

    /**
     * Handling {@code record} threw {@code t}: unless that is not the record's fault (see {@link
     * RecordFailure}), it becomes a dead letter on {@link DispatchTags#DEAD_LETTERS} and the stage
     * goes on with the next record.
     */
    private void failed(IN record, long ts, Throwable t) {
        if (failureCount == null) {
            failureCount = getMetricGroup().counter("recordFailures");
        }
        failureCount.inc();
        emit(
                DispatchTags.DEAD_LETTERS,
                RecordFailure.deadLetter(
                        name,
                        positionOf(record),
                        () -> Json.write(record),
                        t,
                        failureCount.getCount()),
                ts);
    }

    /**
     * Runs before the next record, of time {@code ts}, is taken from the queue (and before its key
     * is set): a stage whose event-time timers must interleave with its records advances them here.
     */
    protected void beforeHandling(long ts) throws Exception {}

    /**
     * Runs after the records up to {@code watermark} were handled and before timers advance to it.
     */
    protected void beforeWatermark(long watermark) throws Exception {}

    /** What finds {@code record} in a dead letter (no uid, no token): null by default. */
    protected String positionOf(IN record) {
        return null;
    }

    /** Records waiting for the watermark. */
    public int waiting() {
        return queue.size();
    }

    /** Records waiting for the watermark on the heap (the others wait in RocksDB). */
    public int waitingOnHeap() {
        return queue.onHeap();
    }

    protected void emit(OUT value, long ts) {
        output.collect(out.replace(value, ts));
    }

    protected <X> void emit(OutputTag<X> tag, X value, long ts) {
        output.collect(tag, new StreamRecord<>(value, ts));
    }
}
