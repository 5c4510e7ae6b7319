package io.pushline.emulators;

/**
 * How an emulated vendor behaves: its answer latency, the share of tokens it calls invalid (tokens
 * starting with {@code invalid} always are), its quota in sends per second (beyond it: 429 with
 * Retry-After, or the vendor's own throttle code) and the share of calls it fails with a 5xx.
 */
public record Behaviour(
        long latencyMs,
        double invalidShare,
        double quotaPerSecond,
        int retryAfterSeconds,
        double errorShare,
        double throttleShare) {

    /** Answers at once, refuses only {@code invalid...} tokens, no quota, no errors. */
    public static final Behaviour PLAIN = new Behaviour(0, 0, 0, 1, 0, 0);

    public Behaviour {
        if (latencyMs < 0
                || invalidShare < 0
                || invalidShare > 1
                || quotaPerSecond < 0
                || retryAfterSeconds < 0
                || errorShare < 0
                || errorShare > 1
                || throttleShare < 0
                || throttleShare > 1) {
            throw new IllegalArgumentException("emulator behaviour out of range: " + this);
        }
    }

    public Behaviour withLatency(long ms) {
        return new Behaviour(
                ms, invalidShare, quotaPerSecond, retryAfterSeconds, errorShare, throttleShare);
    }

    public Behaviour withInvalidShare(double share) {
        return new Behaviour(
                latencyMs, share, quotaPerSecond, retryAfterSeconds, errorShare, throttleShare);
    }

    public Behaviour withQuota(double perSecond) {
        return new Behaviour(
                latencyMs, invalidShare, perSecond, retryAfterSeconds, errorShare, throttleShare);
    }

    public Behaviour withErrorShare(double share) {
        return new Behaviour(
                latencyMs, invalidShare, quotaPerSecond, retryAfterSeconds, share, throttleShare);
    }

    public Behaviour withThrottleShare(double share) {
        return new Behaviour(
                latencyMs, invalidShare, quotaPerSecond, retryAfterSeconds, errorShare, share);
    }

    /** Whether the vendor considers this token invalid (stable per token). */
    public boolean invalid(String token) {
        if (token == null || token.isEmpty() || token.startsWith("invalid")) {
            return true;
        }
        if (invalidShare <= 0) {
            return false;
        }
        int h = token.hashCode() * 0x9E3779B9;
        return ((h >>> 8) & 0xFFFF) < invalidShare * 0x10000;
    }
}
