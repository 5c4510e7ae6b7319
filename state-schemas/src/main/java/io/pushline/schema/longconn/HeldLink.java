package io.pushline.schema.longconn;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A device the ack tracker held on the heap with a change not yet in its keyed state, as a
 * checkpoint keeps it (operator state, {@link LongconnState#heldDevices()}): a restore writes it
 * into the keyed state of the subtask that owns the device.
 */
@TypeInfo(HeldLinkSerializer.Factory.class)
public class HeldLink {
    public String deviceId;

    /** The device's state; null when it has nothing left to keep (its keyed state is cleared). */
    public DeviceLink link;

    public HeldLink() {}

    public HeldLink(String deviceId, DeviceLink link) {
        this.deviceId = deviceId;
        this.link = link;
    }
}
