package io.pushline.sendtime.predict;

import io.pushline.schema.sendtime.SendTime;
import io.pushline.schema.sendtime.UserDays;

/**
 * The second predictor (not in any seed): a histogram of the user's daily first (and last) activity
 * minute in 10-minute bins, each day weighted by {@code DECAY^(days back - 1)} so that a changed
 * habit wins within days; the time is the bin holding the weighted median, taken at its middle, and
 * kept within bounds (first 05:00–10:00, last 20:00–23:59). A median, unlike the contract's window
 * rules, follows a habit at any minute and ignores a single odd day.
 */
public final class HistogramPredictor {
    /** Per day back: a habit's half-life of about three days. */
    public static final double DECAY = 0.8;

    static final int BIN = 10;
    static final int FIRST_FROM = 5 * 60;
    static final int FIRST_TO = 10 * 60;
    static final int LAST_FROM = 20 * 60;
    static final int LAST_TO = 23 * 60 + 59;

    private HistogramPredictor() {}

    public static SendTime predict(UserDays u) {
        return SendTime.of(
                u.uid,
                SendTimeRules.format(clamp(median(u.earliest), FIRST_FROM, FIRST_TO)),
                SendTimeRules.format(clamp(median(u.latest), LAST_FROM, LAST_TO)));
    }

    /** The middle of the 10-minute bin holding the decay-weighted median of the days' minutes. */
    static int median(int[] minuteByDay) {
        double[] bins = new double[24 * 60 / BIN];
        double total = 0;
        double w = 1;
        for (int m : minuteByDay) {
            if (m >= 0) {
                bins[m / BIN] += w;
                total += w;
            }
            w *= DECAY;
        }
        double seen = 0;
        for (int b = 0; b < bins.length; b++) {
            seen += bins[b];
            if (seen >= total / 2 && bins[b] > 0) {
                return Math.min(24 * 60 - 1, b * BIN + BIN / 2);
            }
        }
        return -1;
    }

    private static int clamp(int minute, int from, int to) {
        return Math.max(from, Math.min(to, minute));
    }
}
