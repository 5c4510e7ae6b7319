package io.pushline.receipts;

import io.pushline.schema.receipts.MetricDelta;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Gives each count its own event time as the record's timestamp. A count the lifecycle held until
 * its decision came leaves with the decision's timestamp; windows and their lateness must see the
 * time of what is counted. Watermarks pass unchanged.
 */
public class StampEventTime extends AbstractStreamOperator<MetricDelta>
        implements OneInputStreamOperator<MetricDelta, MetricDelta> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StreamRecord<MetricDelta> element) {
        output.collect(element.replace(element.getValue(), element.getValue().ts));
    }
}
