package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Where the dispatch job writes: sends (one per device, to its vendor's topic), every decision,
 * dead letters, and optionally the registry mirror.
 *
 * @param reminderSends the metered reminder sends' own writer (to the vendor topics, with its own
 *     transactions), run chained with the meter; null: they join {@code sends}
 * @param reminderDecisions the writer of pulled reminders' decisions (to the decisions topic, with
 *     its own transactions); null: they join {@code decisions}
 */
public record DispatchSinks(
        Sink<SendRecord> sends,
        Sink<Decision> decisions,
        Sink<DeadLetter> deadLetters,
        Sink<RegistryChange> registry,
        Sink<PacingStatus> pacingReports,
        Sink<ReminderLine> reminderRejected,
        Sink<SendRecord> reminderSends,
        Sink<Decision> reminderDecisions) {
    /**
     * @param registry null when the registry is not mirrored anywhere
     */
    public DispatchSinks(
            Sink<SendRecord> sends,
            Sink<Decision> decisions,
            Sink<DeadLetter> deadLetters,
            Sink<RegistryChange> registry) {
        this(sends, decisions, deadLetters, registry, null, null, null, null);
    }

    public DispatchSinks(
            Sink<SendRecord> sends,
            Sink<Decision> decisions,
            Sink<DeadLetter> deadLetters,
            Sink<RegistryChange> registry,
            Sink<PacingStatus> pacingReports) {
        this(sends, decisions, deadLetters, registry, pacingReports, null, null, null);
    }

    /**
     * Writes the topology's output here, each sink with its stable uid; the optional streams go to
     * their own sinks where there are some, else join the main ones.
     */
    public void attach(DispatchStreams streams) {
        DataStream<SendRecord> allSends = streams.sends();
        if (streams.reminderSends() != null) {
            if (reminderSends() != null) {
                // parallelism 1, chained with the meter: a send is written when the meter lets it
                // go
                streams.reminderSends()
                        .sinkTo(reminderSends())
                        .uid("sink-reminder-sends")
                        .name("Reminder vendor topics")
                        .setParallelism(1);
            } else {
                allSends = allSends.union(streams.reminderSends());
            }
        }
        allSends.sinkTo(sends()).uid("sink-vendor-topics").name("Vendor topics");
        DataStream<Decision> allDecisions = streams.decisions();
        if (streams.reminderDecisions() != null) {
            if (reminderDecisions() != null) {
                // chained with the pulled-decision stage: see DispatchStreams#reminderDecisions
                streams.reminderDecisions()
                        .sinkTo(reminderDecisions())
                        .uid("sink-pulled-decisions")
                        .name("Pulled decisions");
            } else {
                allDecisions = allDecisions.union(streams.reminderDecisions());
            }
        }
        allDecisions.sinkTo(decisions()).uid("sink-decisions").name("Decisions");
        streams.deadLetters().sinkTo(deadLetters()).uid("sink-dead-letters").name("Dead letters");
        if (pacingReports() != null && streams.pacingReports() != null) {
            streams.pacingReports()
                    .sinkTo(pacingReports())
                    .uid("sink-pacing-reports")
                    .name("Pacing reports");
        }
        if (reminderRejected() != null && streams.reminderRejected() != null) {
            streams.reminderRejected()
                    .sinkTo(reminderRejected())
                    .uid("sink-reminder-rejected")
                    .name("Refused reminder events");
        }
        if (registry() != null) {
            streams.registryChanges()
                    .sinkTo(registry())
                    .uid("sink-hbase-registry")
                    .name("HBase registry");
        }
    }
}
