package io.pushline.receipts;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * Where the receipts job writes: HBase tables, push.metrics, device.events, push.dlq.
 *
 * @param minuteTable minute rows into push_metrics ({@code dayTable}: day rows into
 *     push_metrics_daily)
 * @param metricsTopic minute and day rows onto push.metrics
 */
public record ReceiptsSinks(
        Sink<MetricRow> minuteTable,
        Sink<MetricRow> dayTable,
        Sink<MetricRow> metricsTopic,
        Sink<Lifecycle> lifecycle,
        Sink<DeviceEvent> unbinds,
        Sink<DeadLetter> deadLetters) {}
