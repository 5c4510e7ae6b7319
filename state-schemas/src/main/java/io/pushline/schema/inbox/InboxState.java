package io.pushline.schema.inbox;

import io.pushline.schema.StateTtl;
import java.time.Duration;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;

/** Keyed state of the dispatch job's inbox writer (keyed by uid). */
public final class InboxState {
    private InboxState() {}

    /**
     * The message ids (a serialized Roaring bitmap) whose first read by the uid was reported to the
     * receipts job, so that a read is counted once however often it is repeated or replayed. Kept
     * for the inbox's retention after its last change (processing time): a message has left the
     * inbox by then.
     */
    public static ValueStateDescriptor<byte[]> reportedReads(Duration retention) {
        ValueStateDescriptor<byte[]> d =
                new ValueStateDescriptor<>(
                        "inbox-reported-reads",
                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        d.enableTimeToLive(StateTtl.garbageOnly(retention));
        return d;
    }
}
