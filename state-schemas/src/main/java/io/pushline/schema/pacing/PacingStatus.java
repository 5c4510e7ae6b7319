package io.pushline.schema.pacing;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A record of {@code push.pacing}: a vendor's backlog and rate, published by the pacer every second
 * so that campaign expansion (upstream, reached only through a topic) can pause while a vendor is
 * far behind.
 */
@JsonPropertyOrder({"vendor", "backlog", "rate", "maxRate", "ts"})
public class PacingStatus {
    public String vendor;
    public long backlog;
    public double rate;
    public double maxRate;

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
