package io.pushline.dispatch.pacing;

import io.pushline.schema.pacing.VendorPacing;

/**
 * The pacing arithmetic on one vendor's {@link VendorPacing}: a token bucket at the vendor's rate,
 * weighted fair shares between levels that wait (stride scheduling), realtime levels ahead of bulk,
 * and AIMD on throttling reports. No Flink here, so it can be tested and reasoned about alone.
 *
 * <p>Shares: each waiting level has a pass value; the level with the lowest pass sends next and its
 * pass grows by {@code STRIDE / weight}, so over any stretch where levels wait, each sends in
 * proportion to its weight and none waits without progress. A bulk level that starts waiting joins
 * at the current virtual time (no credit for having been idle); a realtime level (at or above the
 * realtime level) joins just below every waiting level, so its push goes out at the next token,
 * ahead of any bulk backlog; only when realtime pushes themselves pile up do they fall back to
 * their weighted share, which keeps bulk from starving.
 */
public final class VendorPacer {
    static final long STRIDE = 1L << 21;

    /** A throttling report within this long of the last cut does not cut again. */
    public static final long COOLDOWN_MS = 1_000;

    /** The rate never falls below this, messages per second. */
    public static final double MIN_RATE = 1.0;

    private VendorPacer() {}

    public static VendorPacing fresh(
            double rate, int[] weights, int realtimeLevel, long now, long tickMs) {
        VendorPacing s = new VendorPacing();
        s.maxRate = rate;
        s.rate = rate;
        s.weights = weights.clone();
        s.realtimeLevel = realtimeLevel;
        s.refilledAt = now;
        s.tokens = burst(rate, tickMs);
        s.peak = burst(rate * PEAK, tickMs);
        return s;
    }

    /** A new configuration; a rate lowered by throttling stays lowered (but never above max). */
    public static void configure(
            VendorPacing s, double maxRate, int[] weights, int realtimeLevel, boolean fromRules) {
        boolean cut = s.rate < s.maxRate;
        s.maxRate = maxRate;
        s.rate = cut ? Math.min(s.rate, maxRate) : maxRate;
        s.tokens = Math.min(s.tokens, Math.max(1.0, s.rate)); // no credit at the old rate
        s.weights = weights.clone();
        s.realtimeLevel = realtimeLevel;
        s.fromRules = fromRules;
    }

    /**
     * Two buckets, as a committed and a peak rate: {@code tokens} earns the rate and keeps up to
     * CREDIT_MS worth while a backlog waits, so a stall (a checkpoint's synchronous part, a late
     * timer) is made up and the rate holds over seconds; {@code peak} earns {@link #PEAK} times the
     * rate and holds two ticks' worth, or what it earned since the last refill when that is more: a
     * tick that fires late may send all the time since the previous one earned (a cap of two ticks
     * lost a fifth of the rate whenever ticks came 25 ms apart on a busy machine), while credit
     * beyond that is made up gradually, so a second gets at most 1.025 x the rate plus the longest
     * gap between two ticks. An idle vendor keeps two ticks of credit. Recovers a throttled rate
     * additively once the cooldown has passed.
     */
    public static void refill(VendorPacing s, long now, long tickMs, double recoveryPerSecond) {
        long dt = now - s.refilledAt;
        if (dt <= 0) {
            return;
        }
        if (s.rate < s.maxRate && now - s.cutAt >= COOLDOWN_MS) {
            s.rate = Math.min(s.maxRate, s.rate + s.maxRate * recoveryPerSecond * dt / 1000.0);
        }
        double credit =
                s.backlog() > 0
                        ? Math.max(1.0, s.rate * CREDIT_MS / 1000.0)
                        : burst(s.rate, tickMs);
        s.tokens = Math.min(credit, s.tokens + s.rate * dt / 1000.0);
        double earned = s.rate * PEAK * dt / 1000.0;
        s.peak = Math.min(Math.max(burst(s.rate * PEAK, tickMs), earned), s.peak + earned);
        s.refilledAt = now;
    }

    /**
     * The shortfall a waiting backlog may make up, in ms of sending: covers a checkpoint's
     * synchronous part or a late timer; a longer stall is lost rather than paid back for seconds.
     */
    static final long CREDIT_MS = 100;

    /** How much faster than its rate a vendor may send while it makes up a shortfall. */
    static final double PEAK = 1.025;

    /** Whether a send may go now. */
    public static boolean mayAct(VendorPacing s) {
        return s.tokens >= 1 && s.peak >= 1;
    }

    /** Uses one send's worth of both buckets. */
    public static void use(VendorPacing s) {
        s.tokens -= 1;
        s.peak -= 1;
    }

    static double burst(double rate, long tickMs) {
        return Math.max(1.0, rate * 2 * tickMs / 1000.0);
    }

    /**
     * A throttling report: cuts the rate by {@code factor}, at most once per cooldown (a burst of
     * reports about the same overload is one signal). Returns whether it cut.
     */
    public static boolean throttle(VendorPacing s, long now, double factor) {
        if (s.cutAt != Long.MIN_VALUE && now - s.cutAt < COOLDOWN_MS) {
            return false;
        }
        s.rate = Math.max(Math.min(MIN_RATE, s.maxRate), s.rate * factor);
        s.tokens = Math.min(s.tokens, 1.0);
        s.peak = Math.min(s.peak, 1.0);
        s.cutAt = now;
        return true;
    }

    /** The longest pause a Retry-After may ask for: a vendor's typo must not stop a channel. */
    public static final long MAX_PAUSE_MS = 60_000;

    /**
     * A throttle that said how long to wait (the vendor's Retry-After): nothing leaves for that
     * long. The buckets are set back by what the rate earns in that time, so the pause needs no
     * state of its own and ends as the buckets refill; applied to every such report, also within
     * the cut's cooldown. The rate starts to recover when the pause ends, not during it.
     */
    public static void pause(VendorPacing s, long now, long retryAfterMs) {
        if (retryAfterMs <= 0) {
            return;
        }
        long pause = Math.min(retryAfterMs, MAX_PAUSE_MS);
        s.cutAt = Math.max(s.cutAt, now + pause - COOLDOWN_MS);
        double owed = s.rate * pause / 1000.0;
        s.tokens = Math.min(s.tokens, 1.0 - owed);
        s.peak = Math.min(s.peak, 1.0 - owed * PEAK);
    }

    /** A recovery report: additive recovery starts now instead of after the cooldown. */
    public static void recovered(VendorPacing s, long now) {
        if (s.cutAt != Long.MIN_VALUE) {
            s.cutAt = now - COOLDOWN_MS;
        }
    }

    /** Reserves the next position in {@code level}'s backlog; returns its seq. */
    public static long enqueue(VendorPacing s, int level) {
        if (s.backlog(level) == 0) {
            if (level >= s.realtimeLevel) {
                s.pass[level] = Math.min(s.vtime, lowestWaitingPass(s)) - 1;
            } else {
                s.pass[level] = Math.max(s.pass[level], s.vtime);
            }
        }
        return s.tail[level]++;
    }

    /** The level that sends next, or -1 when nothing waits. Ties go to the higher level. */
    public static int next(VendorPacing s) {
        int best = -1;
        for (int l = VendorPacing.LEVELS - 1; l >= 0; l--) {
            if (s.backlog(l) > 0 && (best < 0 || s.pass[l] < s.pass[best])) {
                best = l;
            }
        }
        return best;
    }

    /** Takes the head of {@code level}'s backlog off (sent or expired); returns its seq. */
    public static long take(VendorPacing s, int level) {
        s.vtime = s.pass[level];
        s.pass[level] += STRIDE / s.weights[level];
        return s.head[level]++;
    }

    public static int level(int sendLevel) {
        return Math.max(0, Math.min(VendorPacing.LEVELS - 1, sendLevel));
    }

    private static long lowestWaitingPass(VendorPacing s) {
        long low = Long.MAX_VALUE;
        for (int l = 0; l < VendorPacing.LEVELS; l++) {
            if (s.backlog(l) > 0) {
                low = Math.min(low, s.pass[l]);
            }
        }
        return low;
    }
}
