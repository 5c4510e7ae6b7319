package io.pushline.dispatch;

import io.pushline.dispatch.pacing.FeedbackControls;
import io.pushline.dispatch.pacing.RulesPacing;
import io.pushline.reminders.ReminderMeter;
import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingControl;
import io.pushline.schema.pacing.PacingStatus;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * After the gate: reminder sends metered at the reminder rate, then every send paced per vendor
 * (rates from the rules and from the vendors' feedback, higher levels first, lower never starved).
 *
 * @param sends the sends for the vendor topics
 * @param reminderSends the metered reminder sends when they are written apart (no pacing); else
 *     null (they are in {@code sends})
 * @param expired the pacer's decisions for sends past their deadline; null without pacing
 * @param reports the pacer's backlog reports; null without pacing
 */
record PacingStages(
        DataStream<SendRecord> sends,
        DataStream<SendRecord> reminderSends,
        DataStream<Decision> expired,
        DataStream<PacingStatus> reports) {

    static PacingStages wire(
            DataStream<SendRecord> sends,
            DataStream<String> rules,
            DataStream<String> vendorFeedback,
            PacingSettings pacing,
            ReminderSettings reminders,
            DeadLetters deadLetters,
            int maxParallelism) {
        DataStream<SendRecord> metered = null;
        if (reminders != null && reminders.meterDelayMs > 0) {
            SingleOutputStreamOperator<SendRecord> others =
                    sends.process(new ReminderSends(reminders.msgType))
                            .uid("reminder-sends-apart")
                            .name("Reminder sends apart")
                            .setMaxParallelism(maxParallelism);
            metered =
                    others.getSideOutput(ReminderSends.TAG)
                            .transform(
                                    "Meter reminders",
                                    TypeInformation.of(SendRecord.class),
                                    new ReminderMeter(reminders.rules.rate, reminders.meterDelayMs))
                            .uid("reminder-meter")
                            .setParallelism(1)
                            .setMaxParallelism(1);
            sends = others;
            if (pacing != null) {
                // the vendors' limits come after the reminders' own rate
                sends = sends.union(metered);
                metered = null;
            }
        }
        if (pacing == null) {
            return new PacingStages(sends, metered, null, null);
        }
        DataStream<PacingControl> controls =
                rules.flatMap(new RulesPacing(pacing.options))
                        .uid("pacing-rules")
                        .name("Pacing from rules")
                        .setParallelism(1);
        if (vendorFeedback != null) {
            SingleOutputStreamOperator<PacingControl> feedback =
                    vendorFeedback
                            .process(new FeedbackControls())
                            .uid("pacing-feedback")
                            .name("Vendor feedback")
                            .setParallelism(1);
            controls = controls.union(feedback);
            deadLetters.of(feedback);
        }
        SingleOutputStreamOperator<SendRecord> paced =
                DispatchJob.pace(sends, controls, pacing, maxParallelism);
        return new PacingStages(
                paced,
                metered,
                paced.getSideOutput(DispatchTags.DECISIONS),
                paced.getSideOutput(DispatchTags.PACING_STATUS));
    }
}
