package io.pushline.schema.longconn;

import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * Everything the ack tracker keeps for one device (keyed state, keyed by deviceId): its presence,
 * app version and learned delay, and its tracked messages. One value, so that each input costs one
 * read and one write of state: a device rarely has more than a few messages in flight. A POJO (the
 * array of POJOs too) so that fields can be added without losing state.
 */
@TypeInfo(DeviceLinkSerializer.Factory.class)
public class DeviceLink {
    /** Null until the first presence event: unknown counts as online. */
    public Boolean online;

    /** The app version the client last reported, or null. */
    public String appVersion;

    /** The delay the device's last later-phase retry used; null when none or after an ack. */
    public Long learnedDelay;

    /** The tracked messages, in no particular order; null when none. */
    public TrackedSend[] tracked;

    public DeviceLink() {}

    public boolean offline() {
        return online != null && !online;
    }

    public boolean empty() {
        return online == null && appVersion == null && learnedDelay == null && tracked == null;
    }

    /** The tracked message {@code msgId}, or null. */
    public TrackedSend find(String msgId) {
        if (tracked != null) {
            for (TrackedSend t : tracked) {
                if (t.msgId.equals(msgId)) {
                    return t;
                }
            }
        }
        return null;
    }

    public void add(TrackedSend t) {
        tracked = tracked == null ? new TrackedSend[] {t} : append(tracked, t);
    }

    public void remove(String msgId) {
        if (tracked == null) {
            return;
        }
        int n = 0;
        TrackedSend[] kept = new TrackedSend[tracked.length];
        for (TrackedSend t : tracked) {
            if (!t.msgId.equals(msgId)) {
                kept[n++] = t;
            }
        }
        tracked = n == 0 ? null : Arrays.copyOf(kept, n);
    }

    private static TrackedSend[] append(TrackedSend[] a, TrackedSend t) {
        TrackedSend[] b = Arrays.copyOf(a, a.length + 1);
        b[a.length] = t;
        return b;
    }
}
