package io.pushline.dispatch;

import io.pushline.schema.ParsedRecord;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What the dispatch topology reads, whoever provides it: Kafka in {@link DispatchJob#wire}, a trace
 * file in the replay, finite collections in tests.
 *
 * @param records device events, push requests and (with reminders) reminder events, parsed, with
 *     event time assigned
 * @param rulesUpdates new gate rules documents, applied as they arrive
 * @param vendorFeedback the vendors' throttling reports for the pacer; null without pacing
 * @param pacingReports the pacers' backlog reports for the campaign expander; null without
 *     campaigns or pacing
 */
public record DispatchInputs(
        DataStream<ParsedRecord> records,
        DataStream<String> rulesUpdates,
        DataStream<String> vendorFeedback,
        DataStream<String> pacingReports) {
    public DispatchInputs {
        if (records == null || rulesUpdates == null) {
            throw new IllegalArgumentException("records and rulesUpdates are required");
        }
    }

    /** Records and rules only: no vendor feedback, no pacing reports. */
    public static DispatchInputs of(
            DataStream<ParsedRecord> records, DataStream<String> rulesUpdates) {
        return new DispatchInputs(records, rulesUpdates, null, null);
    }
}
