package io.pushline.schema.longconn;

/**
 * What the ack tracker knows of one device's long connection (keyed state, keyed by deviceId). A
 * POJO so that fields can be added without losing state.
 */
public class DeviceLink {
    /** Null until the first presence event: unknown counts as online. */
    public Boolean online;

    /** The app version the client last reported, or null. */
    public String appVersion;

    /** The delay the device's last later-phase retry used; null when none or after an ack. */
    public Long learnedDelay;

    public DeviceLink() {}

    public boolean offline() {
        return online != null && !online;
    }

    public boolean empty() {
        return online == null && appVersion == null && learnedDelay == null;
    }
}
