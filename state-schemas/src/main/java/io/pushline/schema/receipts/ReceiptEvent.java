package io.pushline.schema.receipts;

import io.pushline.schema.DeadLetter;

/**
 * What the receipts job reads, from either topic: a decision of {@code push.decisions} or a vendor
 * receipt of {@code push.receipts}, as one type so both meet in the lifecycle of their (msgId,
 * device). A record that could not be read carries only {@code dead}.
 */
public class ReceiptEvent {
    /** A decision of the gate (PASS or DROP, with its code and reason). */
    public static final byte DECISION = 0;

    public static final byte SENT = 1;
    public static final byte DELIVERED = 2;
    public static final byte CLICKED = 3;
    public static final byte FAILED = 4;
    public static final byte TOKEN_INVALID = 5;

    /** A message read in the inbox ({@code deviceId} is {@code uid:U}, vendor {@code inbox}). */
    public static final byte INBOX_READ = 6;

    /** The long-connection job's reports of one tracked send: ack, retry, fallback, give-up. */
    public static final byte LC_ACKED = 7;

    public static final byte LC_RETRY = 8;
    public static final byte LC_FALLBACK = 9;
    public static final byte LC_GIVE_UP = 10;

    /** The largest kind. */
    public static final byte LAST = LC_GIVE_UP;

    public byte kind;
    public String msgId;

    /** The device, or {@code uid:U} for a decision that found no device for uid U. */
    public String deviceId;

    public String uid;
    public String vendor;

    /** Decisions only. */
    public String msgType;

    /** Decisions: PASS or DROP. */
    public String decision;

    /** Decisions: the drop reason; failed receipts: the vendor's code. */
    public String reason;

    /** Decisions: the status code of the reason (0 for PASS). */
    public int code;

    /** Event time: the push's time for decisions, the vendor's report time for receipts. */
    public long ts;

    /** {@code token_invalid} only: the token the vendor refused. */
    public String token;

    /** Long-connection reports: the contract's attempt and delay (ms). */
    public int attempt;

    public long delayMs;

    /** {@code longconn_fallback}: the vendor channel it went to; null when undeliverable. */
    public String fallbackVendor;

    public DeadLetter dead;

    public ReceiptEvent() {}

    public static ReceiptEvent of(DeadLetter dead) {
        ReceiptEvent e = new ReceiptEvent();
        e.dead = dead;
        return e;
    }

    /** The key of the lifecycle: {@code msgId 0x00 deviceId}. */
    public String lifecycleKey() {
        return msgId + '\0' + deviceId;
    }

    /** Event time; dead letters have none and must not move watermarks. */
    public long timestamp() {
        return dead == null ? ts : Long.MIN_VALUE;
    }

    public static String kindName(byte kind) {
        switch (kind) {
            case DECISION:
                return "decision";
            case SENT:
                return "sent";
            case DELIVERED:
                return "delivered";
            case CLICKED:
                return "clicked";
            case INBOX_READ:
                return "inbox_read";
            case FAILED:
                return "failed";
            case TOKEN_INVALID:
                return "token_invalid";
            case LC_ACKED:
                return "longconn_acked";
            case LC_RETRY:
                return "longconn_retry";
            case LC_FALLBACK:
                return "longconn_fallback";
            case LC_GIVE_UP:
                return "longconn_give_up";
            default:
                return "kind " + kind;
        }
    }
}
