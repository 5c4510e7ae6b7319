package io.pushline.schema.dispatch;

import io.pushline.schema.CompactSerializer;

/**
 * The name {@link DevicePushSerializer} had before it was renamed. A savepoint records its
 * serializer's snapshot class by name, so this one stays: it restores the same serializer.
 */
@Deprecated
public final class DeliverySerializer {
    private DeliverySerializer() {}

    /** The snapshot savepoints taken before the rename name; same versions, same serializer. */
    public static final class Snapshot extends CompactSerializer.Snapshot<DevicePush> {
        public Snapshot() {
            super(DevicePushSerializer::of);
        }
    }
}
