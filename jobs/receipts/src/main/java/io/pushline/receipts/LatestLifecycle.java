package io.pushline.receipts;

import io.pushline.schema.receipts.Lifecycle;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Keeps only the newest version of each changed lifecycle until the next watermark, watermark
 * status change, checkpoint barrier, {@link #FLUSH_INTERVAL_MS} or end of input, then sends those
 * on: a message's decision, sent and delivered often land between two watermarks, and the table
 * needs only the last of them. Runs right after the lifecycle operator (same subtask, same keys),
 * so nothing is reordered across keys that matters.
 */
public class LatestLifecycle extends FlushingOperator<Lifecycle, Lifecycle> {
    private static final long serialVersionUID = 1L;

    private transient Map<String, Lifecycle> changed;

    @Override
    public void processElement(StreamRecord<Lifecycle> element) {
        if (changed == null) {
            changed = new LinkedHashMap<>();
        }
        Lifecycle l = element.getValue();
        changed.put(l.msgId + '\0' + l.deviceId, l);
    }

    @Override
    protected void flush() {
        if (changed == null || changed.isEmpty()) {
            return;
        }
        StreamRecord<Lifecycle> record = new StreamRecord<>(null);
        for (Lifecycle l : changed.values()) {
            output.collect(record.replace(l));
        }
        changed.clear();
    }
}
