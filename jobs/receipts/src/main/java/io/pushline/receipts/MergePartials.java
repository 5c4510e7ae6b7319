package io.pushline.receipts;

import io.pushline.schema.receipts.MetricAcc;
import io.pushline.schema.receipts.MetricPartial;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Adds the lifecycle subtasks' partial counts into a window's counts. */
public class MergePartials implements AggregateFunction<MetricPartial, MetricAcc, MetricAcc> {
    private static final long serialVersionUID = 1L;
    private final MetricAggregate counts = new MetricAggregate();

    @Override
    public MetricAcc createAccumulator() {
        return new MetricAcc();
    }

    @Override
    public MetricAcc add(MetricPartial p, MetricAcc acc) {
        return counts.merge(acc, p.counts);
    }

    @Override
    public MetricAcc getResult(MetricAcc acc) {
        return acc;
    }

    @Override
    public MetricAcc merge(MetricAcc a, MetricAcc b) {
        return counts.merge(a, b);
    }
}
