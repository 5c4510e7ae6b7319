package io.pushline.gateway;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.SendRecord;
import io.pushline.schema.gateway.GatewayInput;
import io.pushline.schema.gateway.SendBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Groups one vendor's sends of the same message into batches of up to the vendor's multi-token
 * limit, so a campaign costs one call per thousand devices where the vendor allows it. A batch
 * leaves when full, after {@code lingerMs}, or before a checkpoint barrier: nothing waits here
 * across a checkpoint, so this operator has no state and a send is in the checkpoint only as part
 * of a call in flight (the async operator's state). Dead letters go to {@link #DEAD_LETTERS}.
 */
public class SendBatcher extends AbstractStreamOperator<SendBatch>
        implements OneInputStreamOperator<GatewayInput, SendBatch> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("gateway-dead-letters", TypeInformation.of(DeadLetter.class));

    /** Sends waiting at most, over all messages, before all leave at once. */
    static final int MAX_WAITING = 10_000;

    private final String vendor;
    private final int maxBatch;
    private final long lingerMs;
    private transient Map<String, List<SendRecord>> waiting;
    private transient int count;
    private transient boolean timerSet;

    public SendBatcher(String vendor, int maxBatch, long lingerMs) {
        this.vendor = vendor;
        this.maxBatch = maxBatch;
        this.lingerMs = lingerMs;
    }

    @Override
    public void open() throws Exception {
        super.open();
        waiting = new LinkedHashMap<>();
    }

    @Override
    public void processElement(StreamRecord<GatewayInput> element) {
        GatewayInput in = element.getValue();
        if (in.dead != null) {
            output.collect(DEAD_LETTERS, new StreamRecord<>(in.dead));
            return;
        }
        SendRecord s = in.send;
        if (maxBatch <= 1) {
            emit(List.of(s));
            return;
        }
        List<SendRecord> group = waiting.computeIfAbsent(s.msgId, k -> new ArrayList<>());
        group.add(s);
        count++;
        if (group.size() >= maxBatch) {
            waiting.remove(s.msgId);
            count -= group.size();
            emit(group);
        } else if (count >= MAX_WAITING) {
            flush();
        } else if (!timerSet) {
            timerSet = true;
            long now = getProcessingTimeService().getCurrentProcessingTime();
            getProcessingTimeService().registerTimer(now + lingerMs, t -> flush());
        }
    }

    private void emit(List<SendRecord> sends) {
        output.collect(new StreamRecord<>(new SendBatch(vendor, sends.toArray(new SendRecord[0]))));
    }

    private void flush() {
        timerSet = false;
        for (List<SendRecord> group : waiting.values()) {
            emit(group);
        }
        waiting.clear();
        count = 0;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }
}
