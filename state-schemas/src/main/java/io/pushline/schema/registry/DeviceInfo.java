package io.pushline.schema.registry;

import io.pushline.schema.Fallback;
import java.util.Objects;

/**
 * What the registry knows of a bound device: keyed state of the registry operator (keyed by
 * deviceId) and the value of the uid index (keyed by uid). A POJO so that fields can be added
 * without losing state.
 */
public class DeviceInfo {
    public String deviceId;
    public String uid;
    public String vendor;
    public String token;

    /** IANA zone, or null: the rules' zone applies. */
    public String tz;

    public boolean pushEnabled = true;

    /** Event time of the bind that created this binding. */
    public long boundTs;

    /** Event time of the last change (bind or switch). */
    public long updatedTs;

    /** The vendor channel a long-connection device falls back to, from its bind; or null. */
    public Fallback fallback;

    public DeviceInfo() {}

    public DeviceInfo copy() {
        DeviceInfo c = new DeviceInfo();
        c.deviceId = deviceId;
        c.uid = uid;
        c.vendor = vendor;
        c.token = token;
        c.tz = tz;
        c.pushEnabled = pushEnabled;
        c.boundTs = boundTs;
        c.updatedTs = updatedTs;
        c.fallback = fallback;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeviceInfo)) {
            return false;
        }
        DeviceInfo d = (DeviceInfo) o;
        return pushEnabled == d.pushEnabled
                && boundTs == d.boundTs
                && updatedTs == d.updatedTs
                && Objects.equals(deviceId, d.deviceId)
                && Objects.equals(uid, d.uid)
                && Objects.equals(vendor, d.vendor)
                && Objects.equals(token, d.token)
                && Objects.equals(tz, d.tz)
                && Objects.equals(fallback, d.fallback);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, uid, vendor, token);
    }

    @Override
    public String toString() {
        return "DeviceInfo{"
                + deviceId
                + " uid="
                + uid
                + " "
                + vendor
                + " tz="
                + tz
                + " enabled="
                + pushEnabled
                + "}";
    }
}
