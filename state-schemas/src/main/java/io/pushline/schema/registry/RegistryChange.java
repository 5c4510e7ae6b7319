package io.pushline.schema.registry;

import java.util.Objects;

/**
 * A change of one device's binding, as written to the HBase {@code devices} table and its uid
 * index. {@code device} is null when the device was unbound; {@code previousUid} is the uid it
 * belonged to before, if any, so its index row can be removed.
 */
public class RegistryChange {
    public String deviceId;
    public DeviceInfo device;
    public String previousUid;
    public long ts;

    public RegistryChange() {}

    public static RegistryChange of(
            String deviceId, DeviceInfo device, String previousUid, long ts) {
        RegistryChange c = new RegistryChange();
        c.deviceId = deviceId;
        c.device = device;
        c.previousUid = previousUid;
        c.ts = ts;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RegistryChange)) {
            return false;
        }
        RegistryChange c = (RegistryChange) o;
        return ts == c.ts
                && Objects.equals(deviceId, c.deviceId)
                && Objects.equals(device, c.device)
                && Objects.equals(previousUid, c.previousUid);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, ts);
    }
}
