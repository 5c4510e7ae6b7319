package io.pushline.schema.pacing;

/**
 * One vendor's pacer: its rate, token bucket, and per-level backlog positions and weighted-fair
 * pass values. The sends themselves are in the vendor's queue map (see PacingStateDescriptors),
 * under {@code level << 48 | seq}; a level's backlog is the seqs in {@code [head, tail)}.
 */
public class VendorPacing {
    /** Levels 0..LEVELS-1; a push's level is clamped into this range. */
    public static final int LEVELS = 16;

    /** The configured rate in force, messages per second. */
    public double maxRate;

    /** The current rate: maxRate, or less after the vendor reported throttling. */
    public double rate;

    /** Sends earned at the rate and not made yet (a little credit while a backlog waits). */
    public double tokens;

    /** Sends allowed right now by the peak rate, which bounds how fast a shortfall is made up. */
    public double peak;

    public long refilledAt;

    /** Processing time of the last throttling cut, Long.MIN_VALUE when never cut. */
    public long cutAt = Long.MIN_VALUE;

    public long[] head = new long[LEVELS];
    public long[] tail = new long[LEVELS];
    public long[] pass = new long[LEVELS];

    /** The pass value of the last send: where a level that starts waiting joins. */
    public long vtime;

    public int[] weights = new int[LEVELS];
    public int realtimeLevel;

    /** True when maxRate, weights and realtimeLevel came from a rules document, not options. */
    public boolean fromRules;

    public VendorPacing() {}

    public long backlog(int level) {
        return tail[level] - head[level];
    }

    public long backlog() {
        long n = 0;
        for (int l = 0; l < LEVELS; l++) {
            n += tail[l] - head[l];
        }
        return n;
    }

    /** The key of a queued send in the queue map. */
    public static long queueKey(int level, long seq) {
        return ((long) level << 48) | seq;
    }
}
