package io.pushline.schema.receipts;

import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;

/**
 * The life of one message to one device: the gate's decision and the vendor's reports, each with
 * its event time ({@link #NONE} until seen), and a compact {@link #status()}. Keyed state of the
 * receipts job and a row of {@code push_lifecycle}. A POJO so it can gain fields.
 */
public class Lifecycle {
    public static final long NONE = Long.MIN_VALUE;

    /** Status codes: stable, never renumber. Drops use their {@link DropReason} code (10-17). */
    public static final int UNKNOWN = 0;

    public static final int PASSED = 1;
    public static final int SENT = 2;
    public static final int DELIVERED = 3;
    public static final int CLICKED = 4;
    public static final int FAILED = 20;
    public static final int TOKEN_INVALID = 21;

    public String msgId;
    public String deviceId;
    public String uid;
    public String vendor;
    public String msgType;

    /** PASS or DROP: the last decision (a PASS the pacer expired later is a DROP expired). */
    public String decision;

    public String reason;
    public int code = -1;
    public long decidedAt = NONE;
    public long sentAt = NONE;
    public long deliveredAt = NONE;
    public long clickedAt = NONE;
    public long failedAt = NONE;
    public String failCode;
    public long tokenInvalidAt = NONE;

    /** For {@code uid:U} lifecycles: when the uid first read the message in its inbox. */
    public long inboxReadAt = NONE;

    /** Long connection: retries made (the highest attempt reported). */
    public int lcRetries;

    /** Retries counted in the metrics so far (retries reported before the decision wait). */
    public int lcRetriesCounted;

    /** When the first {@link #MAX_RETRY_TIMES} retries were made. */
    public long[] lcRetryAt;

    public long lcAckedAt = NONE;

    /** Ms from the first send to the ack when it came after a retry (the compensation); or -1. */
    public long lcCompensationMs = -1;

    public long lcFallbackAt = NONE;

    /** The vendor channel the fallback went to; null when it was undeliverable. */
    public String lcFallbackVendor;

    public long lcGiveUpAt = NONE;

    /** Retry times kept per lifecycle: a bound on the state of a device that never acks. */
    public static final int MAX_RETRY_TIMES = 32;

    /** Receipts seen before any decision (bits {@code 1 << kind}), counted once it comes. */
    public int pending;

    public Lifecycle() {}

    public Lifecycle copy() {
        Lifecycle c = new Lifecycle();
        c.msgId = msgId;
        c.deviceId = deviceId;
        c.uid = uid;
        c.vendor = vendor;
        c.msgType = msgType;
        c.decision = decision;
        c.reason = reason;
        c.code = code;
        c.decidedAt = decidedAt;
        c.sentAt = sentAt;
        c.deliveredAt = deliveredAt;
        c.clickedAt = clickedAt;
        c.inboxReadAt = inboxReadAt;
        c.failedAt = failedAt;
        c.failCode = failCode;
        c.tokenInvalidAt = tokenInvalidAt;
        c.pending = pending;
        c.lcRetries = lcRetries;
        c.lcRetriesCounted = lcRetriesCounted;
        c.lcRetryAt = lcRetryAt == null ? null : lcRetryAt.clone();
        c.lcAckedAt = lcAckedAt;
        c.lcCompensationMs = lcCompensationMs;
        c.lcFallbackAt = lcFallbackAt;
        c.lcFallbackVendor = lcFallbackVendor;
        c.lcGiveUpAt = lcGiveUpAt;
        return c;
    }

    /** The furthest the message got, as one small number (see the receipts README). */
    public int status() {
        if (clickedAt != NONE) {
            return CLICKED;
        }
        if (deliveredAt != NONE || lcAckedAt != NONE) {
            return DELIVERED; // an ack: the app has it
        }
        if (tokenInvalidAt != NONE) {
            return TOKEN_INVALID;
        }
        if (failedAt != NONE) {
            return FAILED;
        }
        if (Decision.DROP.equals(decision)) {
            return code;
        }
        if (sentAt != NONE) {
            return SENT;
        }
        return Decision.PASS.equals(decision) ? PASSED : UNKNOWN;
    }

    public static String statusName(int status) {
        switch (status) {
            case UNKNOWN:
                return "unknown";
            case PASSED:
                return "passed";
            case SENT:
                return "sent";
            case DELIVERED:
                return "delivered";
            case CLICKED:
                return "clicked";
            case FAILED:
                return "failed";
            case TOKEN_INVALID:
                return "token_invalid";
            default:
                for (DropReason r : DropReason.values()) {
                    if (r.code() == status) {
                        return "dropped:" + r.wireName();
                    }
                }
                return "dropped:" + status;
        }
    }

    @Override
    public String toString() {
        return "Lifecycle{" + msgId + "/" + deviceId + " " + statusName(status()) + "}";
    }
}
