package io.pushline.schedule;

import io.pushline.common.CommonOptions;
import io.pushline.common.FileLines;
import io.pushline.common.HBaseTables;
import io.pushline.common.OptionsParser;
import io.pushline.recall.RecallJob;
import io.pushline.recall.RecallOptions;
import io.pushline.recall.RecallTable;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.sendtime.SendTimeJob;
import io.pushline.sendtime.SendTimeOptions;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The nightly job (BATCH): send time, recall and the personal schedule for one day, in one run.
 *
 * <pre>
 * activity ─ send time (uid) ─┬─ user_sendtime
 *                             └─ schedule (uid) ─ push_schedule (slot minute)
 * profiles, history ─ recall ─┬─ user_recall       ┘
 * materials ─ per tag ────────┘
 * </pre>
 *
 * The feed ({@link ScheduleFeedJob}) then loads each slot into dispatch {@code schedule.lead}
 * before it.
 */
public final class NightlyJob {
    public static final String NAME = "pushline-nightly";

    private NightlyJob() {}

    /**
     * The schedule step: each user's send time and recall joined by uid, planned into one push
     * request per recalled item.
     */
    public static DataStream<PushRequest> plan(
            DataStream<SendTime> sendTimes, DataStream<UserRecall> recalls, SlotPlanner planner) {
        return sendTimes
                .keyBy(s -> s.uid)
                .connect(recalls.keyBy(r -> r.uid))
                .process(new ScheduleFunction(planner), TypeInformation.of(PushRequest.class))
                .uid("schedule")
                .name("Plan personal slots");
    }

    /** The production run: files in, HBase tables out; returns when the job has finished. */
    public static JobExecutionResult run(StreamExecutionEnvironment env, Configuration options)
            throws Exception {
        String quorum = HBaseTables.requireAddress(options);
        String namespace = options.get(CommonOptions.HBASE_NAMESPACE);
        // the send-time settings first: their rules' zone gives the default day
        SendTimeJob.Settings probe = SendTimeJob.Settings.from(options, "2000-01-01");
        String day = options.get(ScheduleOptions.DATE);
        LocalDate date;
        try {
            date =
                    day == null || day.isBlank()
                            ? LocalDate.now(probe.rules.timezone).plusDays(1)
                            : LocalDate.parse(day);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "option '"
                            + ScheduleOptions.DATE.key()
                            + "': expected YYYY-MM-DD, got '"
                            + day
                            + "'");
        }
        Duration lead = options.get(ScheduleOptions.LEAD);
        Duration deadline = options.get(ScheduleOptions.DEADLINE);
        if (lead.isNegative() || deadline.isNegative()) {
            throw new IllegalArgumentException(
                    "options 'schedule.lead' and 'schedule.deadline' must not be negative");
        }
        SendTimeJob.Settings sendTime = SendTimeJob.Settings.from(options, date.toString());
        try (Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
            HBaseTables.ensure(c, namespace);
        }
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);

        SingleOutputStreamOperator<ActivityEvent> activity =
                SendTimeJob.readActivity(env, options, sendTime);
        FileLines.deadLetters(
                activity.getSideOutput(DispatchTags.DEAD_LETTERS), options, "rejected activity");
        DataStream<SendTime> times =
                SendTimeJob.build(activity, sendTime.rules, date, sendTime.predictor);
        DataStream<UserRecall> recalls = RecallJob.build(env, options, date);
        SlotPlanner planner = new SlotPlanner(date, sendTime.rules.timezone, lead, deadline);

        times.sinkTo(sendTime.sink(quorum, namespace))
                .uid("sink-user-sendtime")
                .name("HBase user_sendtime");
        recalls.sinkTo(RecallTable.sink(quorum, namespace))
                .uid("sink-user-recall")
                .name("HBase user_recall");
        plan(times, recalls, planner)
                .sinkTo(ScheduleTable.sink(quorum, namespace))
                .uid("sink-push-schedule")
                .name("HBase push_schedule");
        return env.execute(NAME);
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        ScheduleOptions.nightly(),
                        o -> {
                            if (o.get(SendTimeOptions.ACTIVITY_TOPIC) == null) {
                                OptionsParser.require(o, SendTimeOptions.ACTIVITY);
                            }
                            OptionsParser.require(o, RecallOptions.DATA);
                            OptionsParser.require(o, CommonOptions.HBASE_ZK_QUORUM);
                        });
        run(StreamExecutionEnvironment.getExecutionEnvironment(), options);
    }
}
