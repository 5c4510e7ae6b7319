package io.pushline.receipts;

import io.pushline.schema.receipts.MetricAcc;
import io.pushline.schema.receipts.MetricRow;
import java.util.TreeMap;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Turns a window's counts into a {@link MetricRow} of its period. Fires at the watermark and again
 * for each late count within the allowed lateness: every firing is the whole row (an upsert).
 */
public class MetricWindow extends ProcessWindowFunction<MetricAcc, MetricRow, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    private final String grain;

    public MetricWindow(String grain) {
        this.grain = grain;
    }

    @Override
    public void process(
            String key, Context ctx, Iterable<MetricAcc> counts, Collector<MetricRow> out) {
        MetricAcc acc = counts.iterator().next();
        out.collect(row(grain, ctx.window().getStart(), key, acc));
    }

    static MetricRow row(String grain, long start, String key, MetricAcc acc) {
        String[] parts = key.split("\0", -1);
        MetricRow r = new MetricRow();
        r.grain = grain;
        r.start = start;
        r.msgId = parts[0];
        r.msgType = parts[1];
        r.vendor = parts[2];
        r.passed = acc.passed;
        r.dropped = acc.dropped;
        r.drops = new TreeMap<>(acc.drops);
        r.sent = acc.sent;
        r.delivered = acc.delivered;
        r.clicked = acc.clicked;
        r.failed = acc.failed;
        r.fails = new TreeMap<>(acc.fails);
        r.tokenInvalid = acc.tokenInvalid;
        r.inboxRead = acc.inboxRead;
        if (acc.latency != null) {
            for (int c : acc.latency) {
                r.latencyCount += c;
            }
        }
        r.latencyP50 = LatencyHistogram.percentile(acc.latency, 0.50);
        r.latencyP90 = LatencyHistogram.percentile(acc.latency, 0.90);
        r.latencyP99 = LatencyHistogram.percentile(acc.latency, 0.99);
        r.latencyMax = acc.latencyMax;
        r.lcAcked = acc.lcAcked;
        r.lcRetries = acc.lcRetries;
        r.lcFallbacks = acc.lcFallbacks;
        r.lcGiveUps = acc.lcGiveUps;
        if (acc.compensation != null) {
            for (int c : acc.compensation) {
                r.compensationCount += c;
            }
        }
        r.compensationP50 = LatencyHistogram.percentile(acc.compensation, 0.50);
        r.compensationP90 = LatencyHistogram.percentile(acc.compensation, 0.90);
        r.compensationP99 = LatencyHistogram.percentile(acc.compensation, 0.99);
        r.compensationMax = acc.compensationMax;
        return r;
    }
}
