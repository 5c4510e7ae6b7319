package io.pushline.schema.receipts;

/**
 * One count for the metrics: what happened ({@link #metric}), to which (msgId, msgType, vendor), at
 * which event time. The lifecycle emits each at most once per (message, device), so windows only
 * add.
 */
public class MetricDelta {
    public static final byte PASSED = 0;
    public static final byte DROPPED = 1;
    public static final byte SENT = 2;
    public static final byte DELIVERED = 3;
    public static final byte CLICKED = 4;
    public static final byte FAILED = 5;
    public static final byte TOKEN_INVALID = 6;
    public static final byte INBOX_READ = 7;

    /** Long connection: acked (latencyMs: the compensation time when retried), each retry, etc. */
    public static final byte LC_ACKED = 8;

    public static final byte LC_RETRY = 9;
    public static final byte LC_FALLBACK = 10;
    public static final byte LC_GIVE_UP = 11;

    public long ts;
    public String msgId;
    public String msgType;
    public String vendor;
    public byte metric;

    /** DROPPED: the reason; FAILED: the vendor's code. */
    public String detail;

    /**
     * DELIVERED: ms from the push's time to delivery; LC_ACKED after a retry: the compensation time
     * (ms from the first send to the ack); else -1.
     */
    public long latencyMs = -1;

    public MetricDelta() {}

    public static MetricDelta of(
            long ts, String msgId, String msgType, String vendor, byte metric, String detail) {
        MetricDelta d = new MetricDelta();
        d.ts = ts;
        d.msgId = msgId;
        d.msgType = msgType;
        d.vendor = vendor;
        d.metric = metric;
        d.detail = detail;
        return d;
    }

    /** The metrics key: {@code msgId 0x00 msgType 0x00 vendor}. */
    public String key() {
        return msgId + '\0' + msgType + '\0' + vendor;
    }
}
