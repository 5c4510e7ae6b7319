package io.pushline.dispatch;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.common.NoEventTime;
import io.pushline.inbox.InboxOptions;
import io.pushline.inbox.InboxWriter;
import io.pushline.inbox.InboxWriterOperator;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.inbox.InboxRead;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The dispatch job's inbox writing: the inbox changes of pushes (sent bitmaps, broadcasts) and the
 * reads from {@code inbox.events} into HBase, keyed by uid; each read as a receipt, each change as
 * a notice on {@code inbox.changes} for the servers' caches. Off without HBase or with {@code
 * dispatch.inbox.enabled: false}.
 */
final class InboxWriting {
    private InboxWriting() {}

    /** Adds the inbox writer and its sinks to the job; the streams with its dead letters. */
    static DispatchStreams attach(
            StreamExecutionEnvironment env,
            Configuration options,
            DispatchStreams streams,
            AudienceSettings audience,
            String groupId,
            int maxParallelism) {
        InboxWriter inbox = writer(options, audience);
        if (inbox == null) {
            return streams;
        }
        SingleOutputStreamOperator<RegistryInput> reads =
                env.fromSource(
                                KafkaIO.dispatchInput(
                                        options, groupId + "-inbox", List.of(Topics.INBOX_EVENTS)),
                                NoEventTime.<ParsedRecord>strategy(),
                                "Kafka inbox events")
                        .uid("source-kafka-inbox")
                        .setMaxParallelism(maxParallelism)
                        .process(new SplitInput(false))
                        .uid("split-inbox-events")
                        .name("Inbox events")
                        .setMaxParallelism(maxParallelism);
        streams =
                streams.with(
                        reads.getSideOutput(DispatchTags.INBOX),
                        reads.getSideOutput(DispatchTags.DEAD_LETTERS));
        SingleOutputStreamOperator<InboxRead> written =
                streams.inbox()
                        .keyBy(InboxOp::key)
                        .transform(
                                "Inbox writer",
                                TypeInformation.of(InboxRead.class),
                                new InboxWriterOperator(inbox))
                        .uid("inbox-writer")
                        .name("Inbox writer")
                        .setMaxParallelism(maxParallelism);
        written.sinkTo(
                        KafkaIO.jsonSink(
                                options,
                                options.get(DispatchOptions.TRANSACTIONAL_ID_PREFIX),
                                "inbox-reads",
                                Topics.RECEIPTS,
                                r -> r.uid))
                .uid("sink-inbox-reads")
                .name("Inbox reads");
        // not transactional: a read_committed server would see a change only at the next
        // checkpoint, and a notice told twice costs one more read of the row
        written.getSideOutput(DispatchTags.INBOX_CHANGES)
                .sinkTo(
                        KafkaIO.jsonAtLeastOnceSink(
                                options, c -> Topics.INBOX_CHANGES, InboxChange::key))
                .uid("sink-inbox-changes")
                .name("Inbox changes");
        streams = streams.withDeadLetters(written.getSideOutput(DispatchTags.DEAD_LETTERS));
        return streams;
    }

    /**
     * The inbox writer, or null when inboxes are off or there is no HBase. Inbox reads come from
     * their own source, outside the input's event time: a quiet inbox.events must not hold back the
     * decisions' watermark.
     */
    static InboxWriter writer(Configuration options, AudienceSettings audience) {
        String quorum = HBaseTables.address(options);
        if (!options.get(DispatchOptions.INBOX_ENABLED) || quorum == null || quorum.isBlank()) {
            return null;
        }
        return new InboxWriter(
                quorum,
                options.get(CommonOptions.HBASE_NAMESPACE),
                InboxOptions.retention(options),
                audience.audiences);
    }
}
