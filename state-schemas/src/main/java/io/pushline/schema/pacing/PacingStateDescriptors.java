package io.pushline.schema.pacing;

import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * State of the pacer, keyed by vendor. Names are part of savepoint compatibility: never rename.
 *
 * <p>No TTL: there are eight keys, a queued send is removed when it is sent or expires (its
 * campaign's deadline), and a backlog must never vanish because it waited long.
 */
public final class PacingStateDescriptors {
    private PacingStateDescriptors() {}

    public static final String VENDOR = "pacing-vendor";

    public static ValueStateDescriptor<VendorPacing> vendor() {
        return new ValueStateDescriptor<>(VENDOR, TypeInformation.of(VendorPacing.class));
    }

    /** The backlog: {@code level << 48 | seq} to the waiting send. */
    public static MapStateDescriptor<Long, QueuedSend> queue() {
        return new MapStateDescriptor<>(
                "pacing-queue", Types.LONG, TypeInformation.of(QueuedSend.class));
    }
}
