package io.pushline.reminders;

import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Gives each subscribe, unsubscribe and pull its uid's dense id from the dictionary, assigning new
 * ones. Keyed by uid: a uid's id, once known, is kept in keyed state (a cache that TTL may drop:
 * the dictionary never changes an id), so only a uid's first event goes to HBase, and those go in
 * batches: events wait here until {@link #BATCH} of them need the dictionary, the watermark moves,
 * or a checkpoint barrier is due, and leave in the order they came, before that watermark or
 * barrier, so nothing in flight needs checkpointing. Task events (no uid) pass through in order.
 *
 * <p>The dictionary failing fails the task: Flink restores from the last checkpoint and the events
 * are read again (exactly once downstream).
 */
public class SubscriberIds extends AbstractStreamOperator<ReminderEvent>
        implements OneInputStreamOperator<ReminderEvent, ReminderEvent>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** Events resolved in one dictionary round trip. */
    static final int BATCH = 5_000;

    private final UidIds.Factory factory;
    private transient UidIds ids;
    private transient ValueState<Integer> known;
    private transient List<ReminderEvent> batch;
    private transient int unknown;
    private transient Counter lookups;
    private transient Counter hits;

    public SubscriberIds(UidIds.Factory factory) {
        this.factory = factory;
    }

    /** The key of an event here: its uid, or its task for task events. */
    public static String keyOf(ReminderEvent e) {
        return e.uid != null ? "u:" + e.uid : "t:" + e.taskId;
    }

    @Override
    public void open() throws Exception {
        super.open();
        ids = factory.open();
        known = getRuntimeContext().getState(ReminderState.uidId());
        batch = new ArrayList<>(BATCH);
        lookups = getMetricGroup().counter("dictionaryBatches");
        hits = getMetricGroup().counter("uidIdsFromState");
    }

    @Override
    public void processElement(StreamRecord<ReminderEvent> element) throws Exception {
        ReminderEvent e = element.getValue();
        if (e.uid != null) {
            Integer id = known.value();
            if (id != null) {
                e.uidId = id;
                hits.inc();
            } else {
                unknown++;
            }
        }
        batch.add(e);
        if (unknown >= BATCH) {
            flush();
        } else if (unknown == 0) {
            emitAll();
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    /** Resolves the waiting events' unknown uids in one round trip, then emits them in order. */
    private void flush() throws Exception {
        if (unknown > 0) {
            Set<String> uids = new LinkedHashSet<>();
            for (ReminderEvent e : batch) {
                if (e.uid != null && e.uidId < 0) {
                    uids.add(e.uid);
                }
            }
            Map<String, Integer> found = ids.idsOf(new ArrayList<>(uids));
            lookups.inc();
            for (ReminderEvent e : batch) {
                if (e.uid != null && e.uidId < 0) {
                    Integer id = found.get(e.uid);
                    if (id == null) {
                        throw new IOException("the dictionary gave no id for a uid");
                    }
                    e.uidId = id;
                    setCurrentKey(keyOf(e));
                    known.update(id);
                }
            }
            unknown = 0;
        }
        emitAll();
    }

    private void emitAll() {
        for (ReminderEvent e : batch) {
            output.collect(new StreamRecord<>(e, e.ts));
        }
        batch.clear();
    }

    @Override
    public void close() throws Exception {
        if (ids != null) {
            ids.close();
        }
        super.close();
    }
}
