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
        long h = LongSet.pair(collapseId, token);
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
}
