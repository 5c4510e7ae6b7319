package io.pushline.receipts;

import io.pushline.schema.receipts.MetricAcc;
import io.pushline.schema.receipts.MetricDelta;
import java.util.Map;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Adds {@link MetricDelta}s into the counts of a window. */
public class MetricAggregate implements AggregateFunction<MetricDelta, MetricAcc, MetricAcc> {
    private static final long serialVersionUID = 1L;

    @Override
    public MetricAcc createAccumulator() {
        return new MetricAcc();
    }

    @Override
    public MetricAcc add(MetricDelta d, MetricAcc acc) {
        switch (d.metric) {
            case MetricDelta.PASSED:
                acc.passed++;
                break;
            case MetricDelta.DROPPED:
                acc.dropped++;
                acc.drops.merge(d.detail, 1L, Long::sum);
                break;
            case MetricDelta.SENT:
                acc.sent++;
                break;
            case MetricDelta.DELIVERED:
                acc.delivered++;
                if (d.latencyMs >= 0) {
                    acc.latency = LatencyHistogram.add(acc.latency, d.latencyMs);
                    acc.latencyMax = Math.max(acc.latencyMax, d.latencyMs);
                }
                break;
            case MetricDelta.CLICKED:
                acc.clicked++;
                break;
            case MetricDelta.FAILED:
                acc.failed++;
                acc.fails.merge(d.detail, 1L, Long::sum);
                break;
            case MetricDelta.TOKEN_INVALID:
                acc.tokenInvalid++;
                break;
            case MetricDelta.INBOX_READ:
                acc.inboxRead++;
                break;
            case MetricDelta.LC_ACKED:
                acc.lcAcked++;
                if (d.latencyMs >= 0) {
                    acc.compensation = LatencyHistogram.add(acc.compensation, d.latencyMs);
                    acc.compensationMax = Math.max(acc.compensationMax, d.latencyMs);
                }
                break;
            case MetricDelta.LC_RETRY:
                acc.lcRetries++;
                break;
            case MetricDelta.LC_FALLBACK:
                acc.lcFallbacks++;
                break;
            case MetricDelta.LC_GIVE_UP:
                acc.lcGiveUps++;
                break;
            default:
                throw new IllegalArgumentException("unknown metric " + d.metric);
        }
        return acc;
    }

    @Override
    public MetricAcc getResult(MetricAcc acc) {
        return acc;
    }

    @Override
    public MetricAcc merge(MetricAcc a, MetricAcc b) {
        a.passed += b.passed;
        a.dropped += b.dropped;
        a.sent += b.sent;
        a.delivered += b.delivered;
        a.clicked += b.clicked;
        a.failed += b.failed;
        a.tokenInvalid += b.tokenInvalid;
        a.inboxRead += b.inboxRead;
        a.lcAcked += b.lcAcked;
        a.lcRetries += b.lcRetries;
        a.lcFallbacks += b.lcFallbacks;
        a.lcGiveUps += b.lcGiveUps;
        a.compensation = LatencyHistogram.merge(a.compensation, b.compensation);
        a.compensationMax = Math.max(a.compensationMax, b.compensationMax);
        for (Map.Entry<String, Long> e : b.drops.entrySet()) {
            a.drops.merge(e.getKey(), e.getValue(), Long::sum);
        }
        for (Map.Entry<String, Long> e : b.fails.entrySet()) {
            a.fails.merge(e.getKey(), e.getValue(), Long::sum);
        }
        a.latency = LatencyHistogram.merge(a.latency, b.latency);
        a.latencyMax = Math.max(a.latencyMax, b.latencyMax);
        return a;
    }
}
