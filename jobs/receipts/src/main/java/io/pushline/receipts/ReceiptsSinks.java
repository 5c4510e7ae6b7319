package io.pushline.receipts;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import org.apache.flink.api.connector.sink2.Sink;

/** Where the receipts job writes: HBase tables, push.metrics, device.events, push.dlq. */
public final class ReceiptsSinks {
    /** Minute rows into push_metrics, day rows into push_metrics_daily. */
    final Sink<MetricRow> minuteTable;

    final Sink<MetricRow> dayTable;

    /** Minute and day rows onto push.metrics. */
    final Sink<MetricRow> metricsTopic;

    final Sink<Lifecycle> lifecycle;
    final Sink<DeviceEvent> unbinds;
    final Sink<DeadLetter> deadLetters;

    public ReceiptsSinks(
            Sink<MetricRow> minuteTable,
            Sink<MetricRow> dayTable,
            Sink<MetricRow> metricsTopic,
            Sink<Lifecycle> lifecycle,
            Sink<DeviceEvent> unbinds,
            Sink<DeadLetter> deadLetters) {
        this.minuteTable = minuteTable;
        this.dayTable = dayTable;
        this.metricsTopic = metricsTopic;
        this.lifecycle = lifecycle;
        this.unbinds = unbinds;
        this.deadLetters = deadLetters;
    }
}
