package io.pushline.schema.longconn;

/**
 * One tracked (msgId, deviceId), held in its device's {@link DeviceLink}. A POJO so that fields can
 * be added without losing state.
 */
public class TrackedSend {
    public String msgId;

    /** Time of attempt 0 (the send). */
    public long sentTs;

    /** Retries made so far (k-1 while retry k is pending). */
    public int retries;

    /** Time of the last attempt. */
    public long lastAttempt;

    /** The delay of the pending retry, counted from the last attempt. */
    public long delay;

    /** What to resend; null in a replay. */
    public SendBytes send;

    public TrackedSend() {}

    /** When the pending retry comes due, at most {@code Long.MAX_VALUE}. */
    public long due() {
        long due = lastAttempt + delay;
        return due < lastAttempt ? Long.MAX_VALUE : due;
    }
}
