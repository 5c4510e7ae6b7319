package io.pushline.schema.receipts;

import java.util.HashMap;
import java.util.Map;

/**
 * The running counts of one (msgId, msgType, vendor) in one period: window state of the receipts
 * job, and the partial counts its lifecycle subtasks send the windows. A POJO so it can gain
 * fields.
 */
public class MetricAcc {
    public long passed;
    public long dropped;
    public Map<String, Long> drops = new HashMap<>();
    public long sent;
    public long delivered;
    public long clicked;
    public long failed;
    public Map<String, Long> fails = new HashMap<>();
    public long tokenInvalid;

    /** Messages read in the inbox (per uid). */
    public long inboxRead;

    public int[] latency;
    public long latencyMax;

    /** Long connection: acked, retries made, fallen back, given up. */
    public long lcAcked;

    public long lcRetries;
    public long lcFallbacks;
    public long lcGiveUps;

    /** Compensation times (acked after at least one retry), as latency buckets. */
    public int[] compensation;

    public long compensationMax;

    public MetricAcc() {}
}
