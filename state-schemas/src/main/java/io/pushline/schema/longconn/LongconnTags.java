package io.pushline.schema.longconn;

import io.pushline.schema.Decision;
import org.apache.flink.util.OutputTag;

/** Side outputs of the long-connection job's delivery stage. */
public final class LongconnTags {
    private LongconnTags() {}

    /** Acks, retries, fallbacks and give-ups for the receipts job. */
    public static final OutputTag<LongconnReceipt> RECEIPTS =
            new OutputTag<>("longconn-receipts") {};

    /** Fallbacks of devices without a vendor channel: DROP undeliverable. */
    public static final OutputTag<Decision> UNDELIVERABLE =
            new OutputTag<>("longconn-undeliverable") {};
}
