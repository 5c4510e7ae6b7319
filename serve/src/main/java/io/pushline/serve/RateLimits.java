package io.pushline.serve;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * {@code serve.app-rate}: how many calls a second each app key may make, as a token bucket per key
 * holding at most one second of calls (a burst of a second's worth passes, a steady rate above it
 * does not). Per server: several servers behind one balancer each allow the rate.
 */
final class RateLimits {
    private final double perSecond;
    private final LongSupplier nanos;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    private static final class Bucket {
        double tokens;
        long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }
    }

    RateLimits(int perSecond, LongSupplier nanos) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("serve.app-rate must be at least 1");
        }
        this.perSecond = perSecond;
        this.nanos = nanos;
    }

    /** 0 when {@code key} may make a call now (and counts it), else the seconds to wait (>= 1). */
    long take(String key) {
        long now = nanos.getAsLong();
        Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(perSecond, now));
        synchronized (b) {
            b.tokens = Math.min(perSecond, b.tokens + (now - b.at) / 1e9 * perSecond);
            b.at = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - b.tokens) / perSecond));
        }
    }
}
