package io.pushline.schema.receipts;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import org.apache.flink.util.OutputTag;

/** Side outputs of the receipts job. */
public final class ReceiptTags {
    private ReceiptTags() {}

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("receipts-dead-letters") {};

    /** Each changed lifecycle, to be upserted into {@code push_lifecycle}. */
    public static final OutputTag<Lifecycle> LIFECYCLE = new OutputTag<>("receipts-lifecycle") {};

    /** {@code unbind}s for devices whose token a vendor reported invalid. */
    public static final OutputTag<DeviceEvent> UNBIND = new OutputTag<>("receipts-unbind") {};

    /** Counts whose period was closed for longer than the allowed lateness. */
    public static final OutputTag<MetricPartial> TOO_LATE = new OutputTag<>("receipts-too-late") {};
}
