package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What the dispatch topology produces, for the caller to send to its sinks.
 *
 * @param pacingReports the pacer's backlog reports for push.pacing; null without pacing
 * @param reminderRejected reminder events refused by the contract; null without reminders
 * @param inbox changes to inboxes (requests with {@code inbox: true}; reads are added by the caller
 *     that reads inbox.events)
 * @param reminderSends reminder sends out of the reminder meter, to be written by a writer of their
 *     own chained with it (the meter holds the rate where they are written); null when they are in
 *     {@code sends}
 * @param reminderDecisions the {@code pulled} decisions of reminder subscribers who pulled their
 *     task, to be written by a writer of their own chained with their stage; null when there are
 *     none. They must not join {@code decisions}: that writer also reads the gate through forward
 *     edges, so its checkpoints are aligned, and a barrier held up behind a backpressured reminder
 *     pacer (the pulled decisions' source) while the gate's channel stays blocked stopped the whole
 *     job in {@code pushline bench reminders}.
 */
public record DispatchStreams(
        DataStream<SendRecord> sends,
        DataStream<Decision> decisions,
        DataStream<DeadLetter> deadLetters,
        DataStream<RegistryChange> registryChanges,
        DataStream<PacingStatus> pacingReports,
        DataStream<ReminderLine> reminderRejected,
        DataStream<InboxOp> inbox,
        DataStream<SendRecord> reminderSends,
        DataStream<Decision> reminderDecisions) {
    /** These streams with more dead letters. */
    public DispatchStreams withDeadLetters(DataStream<DeadLetter> more) {
        return new DispatchStreams(
                sends,
                decisions,
                deadLetters.union(more),
                registryChanges,
                pacingReports,
                reminderRejected,
                inbox,
                reminderSends,
                reminderDecisions);
    }

    /** These streams with more inbox changes and dead letters. */
    public DispatchStreams with(DataStream<InboxOp> moreInbox, DataStream<DeadLetter> moreDead) {
        return new DispatchStreams(
                sends,
                decisions,
                deadLetters.union(moreDead),
                registryChanges,
                pacingReports,
                reminderRejected,
                inbox.union(moreInbox),
                reminderSends,
                reminderDecisions);
    }
}
