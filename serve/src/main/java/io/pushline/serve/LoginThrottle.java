package io.pushline.serve;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console login's brake on guessing: after {@link #FREE_FAILURES} wrong tokens from one address
 * within {@link #WINDOW_MS}, that address waits before its next try, a minute at first and twice as
 * long after each further failure, at most {@link #MAX_WAIT_MS}. A good login clears it. The
 * generated token (32 random bytes) is out of reach of guessing anyway; this guards a token an
 * operator chose.
 */
final class LoginThrottle {
    static final int FREE_FAILURES = 5;
    static final long WINDOW_MS = 15 * 60_000L;
    static final long FIRST_WAIT_MS = 60_000L;
    static final long MAX_WAIT_MS = 15 * 60_000L;

    /** Addresses remembered at most; past it the oldest windows are dropped. */
    static final int MAX_ADDRESSES = 100_000;

    private static final class Failures {
        int count;
        long first;
        long until;
    }

    private final Map<String, Failures> byAddress = new ConcurrentHashMap<>();

    /** Milliseconds {@code address} must wait before trying again; 0: it may try now. */
    long waitMs(String address, long now) {
        Failures f = byAddress.get(address);
        if (f == null) {
            return 0;
        }
        synchronized (f) {
            return Math.max(0, f.until - now);
        }
    }

    void failed(String address, long now) {
        if (byAddress.size() >= MAX_ADDRESSES) {
            byAddress.values().removeIf(f -> f.first + WINDOW_MS < now && f.until < now);
        }
        Failures f = byAddress.computeIfAbsent(address, a -> new Failures());
        synchronized (f) {
            if (f.first + WINDOW_MS < now && f.until < now) {
                f.count = 0;
                f.first = now;
            }
            f.count++;
            int over = f.count - FREE_FAILURES;
            if (over >= 0) {
                long wait = FIRST_WAIT_MS << Math.min(over, 20);
                f.until = now + Math.min(MAX_WAIT_MS, wait);
            }
        }
    }

    void succeeded(String address) {
        byAddress.remove(address);
    }
}
