package io.pushline.inbox;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.inbox.InboxRead;
import java.io.IOException;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Runs the {@link InboxWriter} and writes the adds it holds for a batch: at latest {@link
 * #MAX_WAIT_MS} after the first of them, before every checkpoint barrier (a checkpoint never counts
 * an add as done that HBase does not have, so a restore cannot lose one) and at the end of input.
 */
public class InboxWriterOperator extends KeyedProcessOperator<String, InboxOp, InboxRead>
        implements BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** How long an add waits at most for its batch to fill. */
    static final long MAX_WAIT_MS = 20;

    private transient boolean flushScheduled;

    public InboxWriterOperator(InboxWriter writer) {
        super(writer);
    }

    @Override
    public void processElement(StreamRecord<InboxOp> element) throws Exception {
        super.processElement(element);
        if (!flushScheduled && writer().waiting() > 0) {
            flushScheduled = true;
            long at = getProcessingTimeService().getCurrentProcessingTime() + MAX_WAIT_MS;
            getProcessingTimeService()
                    .registerTimer(
                            at,
                            t -> {
                                flushScheduled = false;
                                flush();
                            });
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() throws Exception {
        flush();
    }

    private void flush() throws IOException {
        writer().flush(
                        new InboxWriter.Outputs() {
                            @Override
                            public void change(InboxChange change) {
                                output.collect(
                                        DispatchTags.INBOX_CHANGES, new StreamRecord<>(change));
                            }

                            @Override
                            public void deadLetter(DeadLetter letter) {
                                output.collect(
                                        DispatchTags.DEAD_LETTERS, new StreamRecord<>(letter));
                            }
                        });
    }

    private InboxWriter writer() {
        return (InboxWriter) userFunction;
    }
}
