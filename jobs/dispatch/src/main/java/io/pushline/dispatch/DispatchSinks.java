package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.connector.sink2.Sink;

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
}
