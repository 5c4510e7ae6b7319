package io.pushline.emulators;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What an emulated vendor saw: calls, sends accepted, tokens refused as invalid, sends refused for
 * its quota, calls failed with a 5xx, and resends: accepted sends whose collapse id and token it
 * had accepted before (on a real device they replace the first copy).
 */
public final class Counts {
    public final AtomicLong calls = new AtomicLong();
    public final AtomicLong accepted = new AtomicLong();
    public final AtomicLong invalid = new AtomicLong();
    public final AtomicLong throttled = new AtomicLong();
    public final AtomicLong errors = new AtomicLong();
    public final AtomicLong resends = new AtomicLong();
    public final AtomicLong unauthorized = new AtomicLong();

    private final LongSet seen = new LongSet();

    /** Counts an accepted send of {@code collapseId} to {@code token}. */
    void accept(String collapseId, String token) {
        accepted.incrementAndGet();
        long h =
                collapseId.hashCode() * 0x9E3779B97F4A7C15L
                        ^ token.hashCode() * 0xC2B2AE3D27D4EB4FL;
        h ^= (long) token.length() << 32 | collapseId.length();
        if (!seen.add(h)) {
            resends.incrementAndGet();
        }
    }

    @Override
    public String toString() {
        return String.format(
                "calls %d, accepted %d, invalid %d, throttled %d, errors %d, resends %d, unauthorized %d",
                calls.get(),
                accepted.get(),
                invalid.get(),
                throttled.get(),
                errors.get(),
                resends.get(),
                unauthorized.get());
    }

    /** A set of 64-bit hashes in open addressing: millions of sends without boxing. */
    static final class LongSet {
        private long[] slots = new long[1 << 16];
        private int size;
        private boolean hasZero;

        synchronized boolean add(long v) {
            if (v == 0) {
                boolean was = hasZero;
                hasZero = true;
                return !was;
            }
            if (size * 2 >= slots.length) {
                grow();
            }
            int mask = slots.length - 1;
            for (int i = (int) (v ^ (v >>> 29)) & mask; ; i = (i + 1) & mask) {
                if (slots[i] == v) {
                    return false;
                }
                if (slots[i] == 0) {
                    slots[i] = v;
                    size++;
                    return true;
                }
            }
        }

        private void grow() {
            long[] old = slots;
            slots = new long[old.length * 2];
            size = 0;
            for (long v : old) {
                if (v != 0) {
                    add(v);
                }
            }
        }
    }
}
