package io.pushline.schema.pacing;

/**
 * A control event for one vendor's pacer, keyed by vendor: a new configuration from a rules
 * document, or a vendor gateway's throttling or recovery report.
 */
public class PacingControl {
    public static final String CONFIG = "config";
    public static final String THROTTLED = "throttled";
    public static final String RECOVERED = "recovered";

    public String vendor;
    public String kind;

    /** CONFIG: the rate, messages per second. */
    public double maxRate;

    /** CONFIG: the weight of each level (length VendorPacing.LEVELS). */
    public int[] weights;

    /** CONFIG: the lowest realtime level. */
    public int realtimeLevel;

    /** CONFIG: true when it came from a rules document (false: back to the job's options). */
    public boolean fromRules;

    /** THROTTLED: the vendor's status code (429, 503...), for metrics and logs. */
    public int code;

    /** THROTTLED: the vendor's Retry-After in ms (0: none given). */
    public long retryAfterMs;

    public PacingControl() {}

    public static PacingControl feedback(String vendor, String kind, int code, long retryAfterMs) {
        PacingControl c = feedback(vendor, kind, code);
        c.retryAfterMs = retryAfterMs;
        return c;
    }

    public static PacingControl feedback(String vendor, String kind, int code) {
        PacingControl c = new PacingControl();
        c.vendor = vendor;
        c.kind = kind;
        c.code = code;
        return c;
    }

    @Override
    public String toString() {
        return kind + "(" + vendor + (CONFIG.equals(kind) ? ", " + maxRate + "/s" : "") + ")";
    }
}
