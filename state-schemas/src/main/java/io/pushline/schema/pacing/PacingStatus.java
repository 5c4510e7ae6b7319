package io.pushline.schema.pacing;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A record of {@code push.pacing}: a vendor's backlog, rate and event time, published by the pacer
 * five times a second so that campaign expansion (upstream, reached only through a topic) can pause
 * while a vendor is far behind or slow down while the path to the pacer is congested.
 */
@JsonPropertyOrder({"vendor", "backlog", "rate", "maxRate", "watermark", "ts"})
public class PacingStatus {
    public String vendor;
    public long backlog;
    public double rate;
    public double maxRate;

    /**
     * The pacer's event time (its input watermark, epoch ms) when it reported; 0 before the first.
     * How far it trails the event time at campaign expansion is how long the stages between them
     * take: a campaign expanded faster than they absorb shows here, and realtime sends queue behind
     * it.
     */
    public long watermark;

    /** Wall-clock time of the report, epoch ms. */
    public long ts;

    public PacingStatus() {}

    public static PacingStatus of(String vendor, long backlog, double rate, double max, long ts) {
        PacingStatus s = new PacingStatus();
        s.vendor = vendor;
        s.backlog = backlog;
        s.rate = rate;
        s.maxRate = max;
        s.ts = ts;
        return s;
    }

    @Override
    public String toString() {
        return vendor + ": " + backlog + " waiting at " + rate + "/s";
    }
}
