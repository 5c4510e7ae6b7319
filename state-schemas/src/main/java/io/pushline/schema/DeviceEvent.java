package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A record of {@code device.events}: exactly a {@code bind}, {@code unbind} or {@code switch} line
 * of the dispatch trace. Fields a kind does not use stay null.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "ts",
    "type",
    "deviceId",
    "uid",
    "vendor",
    "token",
    "tz",
    "pushEnabled",
    "fallback"
})
public class DeviceEvent {
    public static final String BIND = "bind";
    public static final String UNBIND = "unbind";
    public static final String SWITCH = "switch";

    public long ts;
    public String type;
    public String deviceId;
    public String uid;
    public String vendor;
    public String token;
    public String tz;
    public Boolean pushEnabled;
    public Boolean enabled;

    /**
     * A bind's optional vendor channel for a long-connection device (read by the streaming job
     * only): where the ack tracker falls back to once the long connection is down.
     */
    public Fallback fallback;

    @JsonIgnore public long seq;

    public DeviceEvent() {}

    public static DeviceEvent bind(
            long ts, String deviceId, String uid, String vendor, String token, String tz) {
        DeviceEvent e = new DeviceEvent();
        e.ts = ts;
        e.type = BIND;
        e.deviceId = deviceId;
        e.uid = uid;
        e.vendor = vendor;
        e.token = token;
        e.tz = tz;
        return e;
    }

    public static DeviceEvent unbind(long ts, String deviceId) {
        DeviceEvent e = new DeviceEvent();
        e.ts = ts;
        e.type = UNBIND;
        e.deviceId = deviceId;
        return e;
    }

    /**
     * An unbind that only holds while the device is bound with {@code token}: what the receipts job
     * writes for a token a vendor refused, so a stale or forged report cannot unbind a device bound
     * with another token.
     */
    public static DeviceEvent unbind(long ts, String deviceId, String token) {
        DeviceEvent e = unbind(ts, deviceId);
        e.token = token;
        return e;
    }

    public static DeviceEvent switchTo(long ts, String deviceId, boolean enabled) {
        DeviceEvent e = new DeviceEvent();
        e.ts = ts;
        e.type = SWITCH;
        e.deviceId = deviceId;
        e.enabled = enabled;
        return e;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeviceEvent)) {
            return false;
        }
        DeviceEvent e = (DeviceEvent) o;
        return ts == e.ts
                && seq == e.seq
                && Objects.equals(type, e.type)
                && Objects.equals(deviceId, e.deviceId)
                && Objects.equals(uid, e.uid)
                && Objects.equals(vendor, e.vendor)
                && Objects.equals(token, e.token)
                && Objects.equals(tz, e.tz)
                && Objects.equals(pushEnabled, e.pushEnabled)
                && Objects.equals(enabled, e.enabled)
                && Objects.equals(fallback, e.fallback);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ts, type, deviceId, seq);
    }

    @Override
    public String toString() {
        return "DeviceEvent{" + type + " " + deviceId + "@" + ts + "#" + seq + "}";
    }
}
