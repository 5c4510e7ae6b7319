package io.pushline.dispatch;

import io.pushline.reminders.Reminders;
import io.pushline.reminders.SubscriberIds;
import io.pushline.schema.Decision;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Reminder tasks and subscriptions in (from the split): subscribers get dense ids, tasks fire at
 * their times at the reminder rate ({@link Reminders}), and each firing becomes chunks that join
 * the campaigns' path; subscribers who pulled the task get a {@code pulled} decision instead.
 *
 * @param pushes the fired reminders as audience chunks
 * @param pulled the decisions of subscribers who pulled (a writer of their own, see {@link
 *     DispatchStreams})
 * @param rejected reminder events refused by the contract
 */
record ReminderStages(
        DataStream<AudienceChunk> pushes,
        DataStream<Decision> pulled,
        DataStream<ReminderLine> rejected) {

    static ReminderStages wire(
            RequestStages requests,
            DataStream<PacingStatus> reports,
            long targetDelayMs,
            ReminderSettings reminders,
            AudienceSettings audience,
            DeadLetters deadLetters,
            int maxParallelism) {
        SingleOutputStreamOperator<ReminderEvent> resolved =
                requests.split(DispatchTags.REMINDERS)
                        .keyBy(SubscriberIds::keyOf)
                        .transform(
                                "Resolve subscriber ids",
                                TypeInformation.of(ReminderEvent.class),
                                new SubscriberIds(reminders.ids))
                        .uid("reminder-subscriber-ids")
                        .setMaxParallelism(maxParallelism);
        Reminders.Streams fired =
                Reminders.build(
                        resolved,
                        reminders.rules,
                        true,
                        reminders.meterDelayMs,
                        reports,
                        targetDelayMs,
                        maxParallelism);
        SingleOutputStreamOperator<AudienceChunk> pushes =
                fired.chunks()
                        .process(new ReminderPushes(reminders.msgType, reminders.level))
                        .uid("reminder-pushes")
                        .name("Reminder pushes")
                        .setParallelism(1);
        DataStream<Decision> pulled =
                pushes.getSideOutput(ReminderPushes.PULLED)
                        .rebalance()
                        .process(
                                new PulledDecisions(
                                        reminders.msgType, reminders.level, audience.audiences))
                        .uid("reminder-pulled-decisions")
                        .name("Pulled reminders");
        if (reminders.mirror != null) {
            fired.mirror()
                    .sinkTo(reminders.mirror)
                    .uid("sink-hbase-reminders")
                    .name("HBase reminders");
        }
        deadLetters.add(fired.deadLetters());
        return new ReminderStages(pushes, pulled, fired.rejected());
    }
}
