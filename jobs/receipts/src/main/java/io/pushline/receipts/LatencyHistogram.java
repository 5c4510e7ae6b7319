package io.pushline.receipts;

import java.util.Arrays;

/**
 * Delivery latencies in log-linear buckets (exact below 16 ms, then 16 buckets per power of two, so
 * a reported percentile is within 1/32 of the true value), as a plain {@code int[]} of counts that
 * grows only to the largest bucket used: small in window state, mergeable, no Kryo.
 */
public final class LatencyHistogram {
    private static final int SUB = 16;

    private LatencyHistogram() {}

    static int bucket(long ms) {
        if (ms < SUB) {
            return (int) Math.max(0, ms);
        }
        int exp = 63 - Long.numberOfLeadingZeros(ms); // >= 4
        int sub = (int) (ms >>> (exp - 4)) & (SUB - 1);
        return SUB + (exp - 4) * SUB + sub;
    }

    /** The value a bucket stands for: exact below 16, else the middle of its range. */
    static long value(int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        int exp = (bucket - SUB) / SUB + 4;
        int sub = (bucket - SUB) % SUB;
        long low = (long) (SUB + sub) << (exp - 4);
        long width = 1L << (exp - 4);
        return low + width / 2;
    }

    /** Adds one latency; returns the (maybe grown) array. */
    public static int[] add(int[] counts, long ms) {
        int b = bucket(ms);
        if (counts == null || counts.length <= b) {
            counts = counts == null ? new int[b + 1] : Arrays.copyOf(counts, b + 1);
        }
        counts[b]++;
        return counts;
    }

    public static int[] merge(int[] a, int[] b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        int[] out = Arrays.copyOf(a, Math.max(a.length, b.length));
        for (int i = 0; i < b.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    /**
     * The {@code p}-quantile (0 &lt; p &le; 1): the value of the bucket holding the ceil(p n)-th
     * smallest latency; 0 when empty.
     */
    public static long percentile(int[] counts, double p) {
        if (counts == null) {
            return 0;
        }
        long n = 0;
        for (int c : counts) {
            n += c;
        }
        if (n == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p * n));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return value(i);
            }
        }
        return value(counts.length - 1);
    }
}
