package io.pushline.receipts;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What the receipts topology produces, for the caller to send to its sinks.
 *
 * @param minutes minute rows (push_metrics and push.metrics)
 * @param days day rows (push_metrics_daily and push.metrics)
 * @param lifecycles the newest lifecycle of each message and device between watermarks
 * @param unbinds unbind events for tokens a vendor reported invalid
 * @param deadLetters bad receipts and rows too late for their window
 */
public record ReceiptsStreams(
        DataStream<MetricRow> minutes,
        DataStream<MetricRow> days,
        DataStream<Lifecycle> lifecycles,
        DataStream<DeviceEvent> unbinds,
        DataStream<DeadLetter> deadLetters) {}
