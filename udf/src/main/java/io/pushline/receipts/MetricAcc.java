package io.pushline.receipts;

import java.util.HashMap;
import java.util.Map;

/** The running counts of one metrics window (window state of the receipts job; a POJO). */
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
    public int[] latency;
    public long latencyMax;

    public MetricAcc() {}
}
