package io.pushline.reminders;

import io.pushline.schema.reminders.ReminderEvent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Gives each subscribe, unsubscribe and pull its uid's dense id from the dictionary, assigning new
 * ones. One dictionary round trip per batch, not per event: events wait here until {@link #BATCH}
 * of them have come, the watermark moves, or a checkpoint barrier is due, and leave in the order
 * they came, before that watermark or barrier, so nothing needs checkpointing.
 *
 * <p>The dictionary failing fails the task: Flink restores from the last checkpoint and the events
 * are read again (exactly once downstream).
 */
public class SubscriberIds extends AbstractStreamOperator<ReminderEvent>
        implements OneInputStreamOperator<ReminderEvent, ReminderEvent>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** Events resolved in one dictionary round trip. */
    static final int BATCH = 2_000;

    private final UidIds.Factory factory;
    private transient UidIds ids;
    private transient List<ReminderEvent> batch;
    private transient Counter lookups;

    public SubscriberIds(UidIds.Factory factory) {
        this.factory = factory;
    }

    @Override
    public void open() throws Exception {
        super.open();
        ids = factory.open();
        batch = new ArrayList<>(BATCH);
        lookups = getMetricGroup().counter("dictionaryBatches");
    }

    @Override
    public void processElement(StreamRecord<ReminderEvent> element) throws Exception {
        batch.add(element.getValue());
        if (batch.size() >= BATCH) {
            flush();
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

    private void flush() throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        Set<String> uids = new LinkedHashSet<>();
        for (ReminderEvent e : batch) {
            if (e.uid != null) {
                uids.add(e.uid);
            }
        }
        Map<String, Integer> found = uids.isEmpty() ? Map.of() : ids.idsOf(new ArrayList<>(uids));
        lookups.inc();
        for (ReminderEvent e : batch) {
            if (e.uid != null) {
                Integer id = found.get(e.uid);
                if (id == null) {
                    throw new java.io.IOException("the dictionary gave no id for a uid");
                }
                e.uidId = id;
            }
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
