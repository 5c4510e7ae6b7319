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

    // Both are asked once per send and per decision: computed once, not lowered on every call.
    private final String wire = name().toLowerCase(Locale.ROOT);
    private final String topic = Topics.vendorTopic(wire);
    private static final Vendor[] ALL = values();

    /** The wire name, as in {@code bind} events and topic names. */
    public String wireName() {
        return wire;
    }

    public String topic() {
        return topic;
    }

    /** The vendor for a wire name, or null when it names none. */
    public static Vendor fromWire(String name) {
        if (name == null) {
            return null;
        }
        for (Vendor v : ALL) {
            if (v.wire.equals(name)) {
                return v;
            }
        }
        return null;
    }
}
