package io.pushline.schema;

import java.util.Locale;

/** Where a send leaves Pushline: a vendor's push service or the app's own long connection. */
public enum Vendor {
    APNS,
    FCM,
    HUAWEI,
    HONOR,
    XIAOMI,
    OPPO,
    VIVO,
    LONGCONN;

    /** The wire name, as in {@code bind} events and topic names. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String topic() {
        return Topics.vendorTopic(wireName());
    }

    /** The vendor for a wire name, or null when it names none. */
    public static Vendor fromWire(String name) {
        if (name == null) {
            return null;
        }
        for (Vendor v : values()) {
            if (v.wireName().equals(name)) {
                return v;
            }
        }
        return null;
    }
}
