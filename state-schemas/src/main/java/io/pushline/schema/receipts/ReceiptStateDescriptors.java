package io.pushline.schema.receipts;

import io.pushline.schema.StateTtl;
import java.time.Duration;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** Keyed state of the receipts job. */
public final class ReceiptStateDescriptors {
    private ReceiptStateDescriptors() {}

    /**
     * The lifecycle of one (msgId, device). Kept {@code ttl} after its last change (processing
     * time): a receipt arriving later than that would start a fresh lifecycle and count again, so
     * the TTL must exceed how late vendors report.
     */
    public static ValueStateDescriptor<Lifecycle> lifecycle(Duration ttl) {
        ValueStateDescriptor<Lifecycle> d =
                new ValueStateDescriptor<>(
                        "receipts-lifecycle", TypeInformation.of(Lifecycle.class));
        d.enableTimeToLive(StateTtl.garbageOnly(ttl));
        return d;
    }
}
