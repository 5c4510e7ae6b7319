package io.pushline.vendors;

/**
 * What a vendor answered about one send: the gateway turns it into a receipt ({@link Outcome#SENT},
 * {@link Outcome#FAILED}, {@link Outcome#TOKEN_INVALID}), a pause and a report to the pacer ({@link
 * Outcome#THROTTLED}) or a retry with backoff ({@link Outcome#UNAVAILABLE}).
 *
 * @param code the vendor's own code or reason, as it gave it (null when it gave none)
 * @param retryAfterMs for THROTTLED: how long the vendor asked to wait (its Retry-After), else 0
 */
public record Answer(Outcome outcome, String code, long retryAfterMs) {
    public enum Outcome {
        /** The vendor accepted the send. */
        SENT,
        /** The vendor refused it for good, with its code. */
        FAILED,
        /** The vendor says the token no longer reaches a device: the device is to be unbound. */
        TOKEN_INVALID,
        /** The vendor limits the rate (HTTP 429 or its quota code): wait and tell the pacer. */
        THROTTLED,
        /** The vendor could not answer (5xx, timeout, connection): retry with backoff. */
        UNAVAILABLE
    }

    public static final Answer SENT = new Answer(Outcome.SENT, null, 0);

    public static Answer failed(String code) {
        return new Answer(Outcome.FAILED, code, 0);
    }

    public static Answer tokenInvalid(String code) {
        return new Answer(Outcome.TOKEN_INVALID, code, 0);
    }

    public static Answer throttled(String code, long retryAfterMs) {
        return new Answer(Outcome.THROTTLED, code, Math.max(0, retryAfterMs));
    }

    public static Answer unavailable(String code) {
        return new Answer(Outcome.UNAVAILABLE, code, 0);
    }

    /** Whether sending again may succeed. */
    public boolean retryable() {
        return outcome == Outcome.THROTTLED || outcome == Outcome.UNAVAILABLE;
    }
}
