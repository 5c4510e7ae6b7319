package io.pushline.schema;

import java.util.Locale;

/**
 * Why the gate dropped a (push, device): the {@code reason} of a decision, with a compact status
 * code that receipts and lifecycle tables store instead of the string. Codes are stable: never
 * renumber, only append.
 */
public enum DropReason {
    NO_DEVICE(10),
    PUSH_DISABLED(11),
    DUPLICATE(12),
    QUIET_HOURS(13),
    MIN_INTERVAL(14),
    TYPE_CAP(15),
    DAILY_CAP(16),
    EXPIRED(17),
    /** A reminder the user's app pulled ahead and fires itself: not pushed. */
    PULLED(18),
    /**
     * A long-connection send whose device went offline before acknowledging it, with no vendor
     * channel to fall back to (decided by the long-connection job, after the PASS).
     */
    UNDELIVERABLE(19);

    /** The status code of a PASS. */
    public static final int PASS_CODE = 0;

    private final int code;

    // Worked out once: every dropped push names its reason, and counters look it up by it.
    private final String wireName;

    DropReason(int code) {
        this.code = code;
        this.wireName = name().toLowerCase(Locale.ROOT);
    }

    public int code() {
        return code;
    }

    public String wireName() {
        return wireName;
    }
}
