package io.pushline.dispatch;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.dispatch.registry.HBaseRegistrySink;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The dispatch job's sinks in production: exactly-once Kafka topics (one transactional id per sink
 * under {@code dispatch.transactional-id-prefix}), the pacing reports at least once, and the HBase
 * registry when a quorum is given.
 */
final class DispatchKafkaSinks {
    private DispatchKafkaSinks() {}

    static DispatchSinks of(Configuration options) throws Exception {
        String idPrefix = options.get(DispatchOptions.TRANSACTIONAL_ID_PREFIX);
        Sink<SendRecord> sends = vendorTopics(options, idPrefix, "sends");
        Sink<SendRecord> reminderSends = vendorTopics(options, idPrefix, "reminder-sends");
        Sink<Decision> decisions = decisions(options, idPrefix, "decisions");
        Sink<Decision> pulledDecisions = decisions(options, idPrefix, "pulled-decisions");
        Sink<DeadLetter> dead = KafkaIO.jsonSink(options, idPrefix, "dlq", Topics.DLQ, d -> null);
        // reports are current state, not data: at least once, seen at once (no transaction)
        Sink<PacingStatus> reports =
                KafkaIO.jsonAtLeastOnceSink(options, r -> Topics.PACING_STATUS, r -> r.vendor);
        Sink<ReminderLine> refused =
                KafkaIO.jsonSink(
                        options, idPrefix, "reminders", Topics.REMINDER_REJECTED, r -> r.taskId);
        return new DispatchSinks(
                sends,
                decisions,
                dead,
                registrySink(options),
                reports,
                refused,
                reminderSends,
                pulledDecisions);
    }

    /** Sends into each vendor's topic, keyed by device, in transactions named {@code name}. */
    private static Sink<SendRecord> vendorTopics(
            Configuration options, String idPrefix, String name) {
        return KafkaIO.jsonSink(
                options,
                idPrefix,
                name,
                Topics.VENDOR_TOPICS,
                s -> Topics.vendorTopic(s.vendor),
                s -> s.deviceId);
    }

    /** Decisions into push.decisions, keyed by device (by uid without one). */
    private static Sink<Decision> decisions(Configuration options, String idPrefix, String name) {
        return KafkaIO.jsonSink(
                options,
                idPrefix,
                name,
                Topics.DECISIONS,
                d -> d.deviceId != null ? d.deviceId : d.uid);
    }

    static Sink<RegistryChange> registrySink(Configuration options) throws Exception {
        String quorum = HBaseTables.address(options);
        if (quorum == null || quorum.isBlank()) {
            return null;
        }
        String namespace = options.get(CommonOptions.HBASE_NAMESPACE);
        if (options.get(CommonOptions.HBASE_CREATE_TABLES)) {
            try (Connection c =
                    ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
                HBaseTables.ensure(c, namespace);
            }
        }
        return new HBaseRegistrySink(quorum, namespace);
    }
}
