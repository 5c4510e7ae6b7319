package io.pushline.dispatch;

import io.pushline.common.CommonOptions;
import io.pushline.common.IdleAdvancingWatermarks;
import io.pushline.common.KafkaIO;
import io.pushline.common.NoEventTime;
import io.pushline.common.OptionsParser;
import io.pushline.dispatch.gate.GateOperator;
import io.pushline.dispatch.gate.RulesUpdates;
import io.pushline.dispatch.pacing.FeedbackControls;
import io.pushline.dispatch.pacing.RulesPacing;
import io.pushline.dispatch.pacing.StatusReports;
import io.pushline.dispatch.registry.RegistryOperator;
import io.pushline.dispatch.registry.UidIndexOperator;
import io.pushline.reminders.ReminderMeter;
import io.pushline.reminders.Reminders;
import io.pushline.reminders.SubscriberIds;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.pacing.PacingControl;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The dispatch job: device events and push requests in; one send per (request, device) to the
 * device's vendor topic, one decision per (request, device) and dead letters out.
 *
 * <pre>
 * input ─ split ─┬─ device events, device targets ─ registry (deviceId) ─┬──────────── gate (deviceId) ─ sends, decisions
 *                ├─ with 'at' ─ scheduler (msgId, event-time timers) ─ routed like split ─┘
 *                │                                                       │   rules ─ check ─┘ (broadcast)
 *                ├─ uid targets ──────────── uid index (uid) <─ changes ─┘── resolved ─┘
 *                └─ audience ─ expand (1) ─ chunks ─ resolve ids (rebalance) ─┘
 *
 * sends ─ pace (vendor) ─ vendor topics      rules, vendor.feedback ─ controls (vendor) ─┘
 * </pre>
 *
 * Every keyed stage decides in event-time order (see EventTimeQueue), so the job's decisions are
 * those of the input sorted by time, as the contract in docs/dispatch-gate.md requires.
 *
 * <p>{@link #build} wires the decision path; {@link #wire} adds production's sources, the inbox
 * writing ({@link InboxWriting}) and the sinks ({@link DispatchKafkaSinks}, attached by {@link
 * DispatchSinks#attach}).
 */
public final class DispatchJob {
    public static final String NAME = "pushline-dispatch";

    private DispatchJob() {}

    /**
     * Wires the topology from {@code input} (with event time assigned) and {@code rulesUpdates}
     * (new rules documents, applied as they arrive).
     */
    public static DispatchStreams build(
            DataStream<ParsedRecord> input,
            DataStream<String> rulesUpdates,
            DataStream<String> vendorFeedback,
            DataStream<String> pacingReports,
            GateSettings gate,
            AudienceSettings audience,
            PacingSettings pacing,
            int maxParallelism) {
        return build(
                input,
                rulesUpdates,
                vendorFeedback,
                pacingReports,
                gate,
                audience,
                pacing,
                null,
                maxParallelism);
    }

    /**
     * As above, with reminders (null: none): reminder events from {@code input} are fired at their
     * tasks' times and their pushes join the campaigns' chunks.
     */
    public static DispatchStreams build(
            DataStream<ParsedRecord> input,
            DataStream<String> rulesUpdates,
            DataStream<String> vendorFeedback,
            DataStream<String> pacingReports,
            GateSettings gate,
            AudienceSettings audience,
            PacingSettings pacing,
            ReminderSettings reminders,
            int maxParallelism) {
        boolean campaigns = audience.audiences != null;
        SingleOutputStreamOperator<RegistryInput> split =
                input.process(
                                new SplitInput(
                                        campaigns,
                                        gate.maxScheduleAhead,
                                        gate.maxFuture,
                                        gate.maxPast))
                        .uid("split-input")
                        .name("Split input");
        SingleOutputStreamOperator<RegistryInput> released =
                split.getSideOutput(DispatchTags.SCHEDULED)
                        .keyBy(r -> r.request.msgId)
                        .process(new Scheduler(campaigns))
                        .uid("scheduler")
                        .name("Hold scheduled requests")
                        .setMaxParallelism(maxParallelism);

        SingleOutputStreamOperator<DevicePush> registry =
                split.union(released)
                        .keyBy(k -> k.deviceId)
                        .transform(
                                "Device registry",
                                TypeInformation.of(DevicePush.class),
                                new RegistryOperator())
                        .uid("device-registry")
                        .setMaxParallelism(maxParallelism);

        DataStream<UidKeyed> byUid =
                split.getSideOutput(DispatchTags.UID_KEYED)
                        .union(
                                released.getSideOutput(DispatchTags.UID_KEYED),
                                registry.getSideOutput(DispatchTags.UID_KEYED));
        DataStream<ReminderLine> reminderRejected = null;
        DataStream<Decision> reminderPulls = null;
        DataStream<DeadLetter> deadLetters =
                split.getSideOutput(DispatchTags.DEAD_LETTERS)
                        .union(released.getSideOutput(DispatchTags.DEAD_LETTERS));
        if (campaigns) {
            // the pacer's backlog reports; without them, a stream that never carries any
            DataStream<PacingStatus> backlogs = split.getSideOutput(DispatchTags.PACING_STATUS);
            if (pacingReports != null) {
                SingleOutputStreamOperator<PacingStatus> reports =
                        pacingReports
                                .process(new StatusReports())
                                .uid("pacing-reports")
                                .name("Pacing reports")
                                .setParallelism(1);
                backlogs = reports;
                deadLetters = deadLetters.union(reports.getSideOutput(DispatchTags.DEAD_LETTERS));
            }
            SingleOutputStreamOperator<AudienceChunk> chunks =
                    split.getSideOutput(DispatchTags.CAMPAIGNS)
                            .union(released.getSideOutput(DispatchTags.CAMPAIGNS))
                            .connect(backlogs)
                            .transform(
                                    "Expand campaigns",
                                    TypeInformation.of(AudienceChunk.class),
                                    new CampaignExpander(
                                            audience.audiences,
                                            audience.chunkSize,
                                            audience.maxIdsPerSecond,
                                            pacing == null ? 0 : pacing.maxBacklog,
                                            audience.holdWatermark,
                                            audience.targetDelayMs))
                            .uid("campaign-expander")
                            .setParallelism(1);
            DataStream<AudienceChunk> allChunks = chunks;
            if (reminders != null) {
                SingleOutputStreamOperator<ReminderEvent> resolved =
                        split.getSideOutput(DispatchTags.REMINDERS)
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
                                maxParallelism);
                SingleOutputStreamOperator<AudienceChunk> reminderPushes =
                        fired.chunks()
                                .process(new ReminderPushes(reminders.msgType, reminders.level))
                                .uid("reminder-pushes")
                                .name("Reminder pushes")
                                .setParallelism(1);
                allChunks = chunks.union(reminderPushes);
                reminderPulls =
                        reminderPushes
                                .getSideOutput(ReminderPushes.PULLED)
                                .rebalance()
                                .process(
                                        new PulledDecisions(
                                                reminders.msgType,
                                                reminders.level,
                                                audience.audiences))
                                .uid("reminder-pulled-decisions")
                                .name("Pulled reminders");
                reminderRejected = fired.rejected();
                if (reminders.mirror != null) {
                    fired.mirror()
                            .sinkTo(reminders.mirror)
                            .uid("sink-hbase-reminders")
                            .name("HBase reminders");
                }
                deadLetters = deadLetters.union(fired.deadLetters());
            }
            DataStream<UidKeyed> campaignUids =
                    allChunks
                            .rebalance()
                            .transform(
                                    "Resolve audience ids",
                                    TypeInformation.of(UidKeyed.class),
                                    new ChunkResolver(audience.audiences))
                            .uid("audience-resolver");
            byUid = byUid.union(campaignUids);
            deadLetters = deadLetters.union(chunks.getSideOutput(DispatchTags.DEAD_LETTERS));
        }
        SingleOutputStreamOperator<DevicePush> uidIndex =
                byUid.keyBy(k -> k.uid)
                        .transform(
                                "Uid index",
                                TypeInformation.of(DevicePush.class),
                                new UidIndexOperator())
                        .uid("uid-index")
                        .setMaxParallelism(maxParallelism);

        SingleOutputStreamOperator<String> rules =
                rulesUpdates
                        .process(new RulesUpdates(gate.stateTtl))
                        .uid("rules-check")
                        .name("Check rules")
                        .setParallelism(1);
        SingleOutputStreamOperator<Decision> decided =
                registry.union(uidIndex)
                        .keyBy(d -> d.device.deviceId)
                        .connect(rules.broadcast())
                        .transform(
                                "Gate",
                                TypeInformation.of(Decision.class),
                                new GateOperator(gate.rules, gate.stateTtl))
                        .uid("gate")
                        .setMaxParallelism(maxParallelism);

        DataStream<Decision> decisions =
                decided.union(
                        registry.getSideOutput(DispatchTags.DECISIONS),
                        uidIndex.getSideOutput(DispatchTags.DECISIONS));
        deadLetters =
                deadLetters.union(
                        rules.getSideOutput(DispatchTags.DEAD_LETTERS),
                        registry.getSideOutput(DispatchTags.DEAD_LETTERS),
                        uidIndex.getSideOutput(DispatchTags.DEAD_LETTERS),
                        decided.getSideOutput(DispatchTags.DEAD_LETTERS));
        DataStream<SendRecord> sends = decided.getSideOutput(DispatchTags.SENDS);
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
        DataStream<PacingStatus> reports = null;
        if (pacing != null) {
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
                deadLetters = deadLetters.union(feedback.getSideOutput(DispatchTags.DEAD_LETTERS));
            }
            SingleOutputStreamOperator<SendRecord> paced =
                    pace(sends, controls, pacing, maxParallelism);
            sends = paced;
            decisions = decisions.union(paced.getSideOutput(DispatchTags.DECISIONS));
            reports = paced.getSideOutput(DispatchTags.PACING_STATUS);
        }
        DataStream<InboxOp> inbox =
                split.getSideOutput(DispatchTags.INBOX)
                        .union(
                                released.getSideOutput(DispatchTags.INBOX),
                                registry.getSideOutput(DispatchTags.INBOX));
        return new DispatchStreams(
                sends,
                decisions,
                deadLetters,
                registry.getSideOutput(DispatchTags.REGISTRY_CHANGES),
                reports,
                reminderRejected,
                inbox,
                metered,
                reminderPulls);
    }

    /**
     * The pacer stage: sends and controls keyed by vendor; expired sends come out as decisions on
     * {@link DispatchTags#DECISIONS}.
     */
    public static SingleOutputStreamOperator<SendRecord> pace(
            DataStream<SendRecord> sends,
            DataStream<PacingControl> controls,
            PacingSettings pacing,
            int maxParallelism) {
        return sends.keyBy(s -> s.vendor)
                .connect(controls.keyBy(c -> c.vendor))
                .transform("Pace per vendor", TypeInformation.of(SendRecord.class), pacing.pacer())
                .uid("pacer")
                .setMaxParallelism(maxParallelism);
    }

    /** Sends the topology's output to {@code sinks}. */
    public static void sinkTo(DispatchStreams streams, DispatchSinks sinks) {
        sinks.attach(streams);
    }

    /** Wires the job against Kafka (and HBase, when a quorum is given) from typed options. */
    public static void wire(StreamExecutionEnvironment env, Configuration options)
            throws Exception {
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        pipeline.set(PipelineOptions.NAME, NAME);
        env.configure(pipeline);
        int maxParallelism = options.get(DispatchOptions.MAX_PARALLELISM);
        env.setMaxParallelism(maxParallelism);
        String groupId = options.get(DispatchOptions.GROUP_ID);

        AudienceSettings audience = AudienceSettings.from(options);
        ReminderSettings reminders =
                audience.audiences == null ? null : ReminderSettings.from(options);
        List<String> topics = new ArrayList<>(List.of(Topics.DEVICE_EVENTS, Topics.PUSH_REQUESTS));
        if (reminders != null) {
            topics.add(Topics.REMINDER_TASKS);
            topics.add(Topics.REMINDER_SUBSCRIPTIONS);
        }
        WatermarkStrategy<ParsedRecord> watermarks =
                IdleAdvancingWatermarks.strategy(
                        options.get(DispatchOptions.MAX_OUT_OF_ORDERNESS),
                        options.get(DispatchOptions.IDLE_ADVANCE),
                        options.get(DispatchOptions.MAX_FUTURE),
                        topics);
        DataStream<ParsedRecord> input =
                env.fromSource(
                                KafkaIO.dispatchInput(options, groupId, topics),
                                watermarks,
                                "Kafka input")
                        .uid("source-kafka")
                        .setMaxParallelism(maxParallelism);
        // Control topics: read to their end with the input, or left open to keep the job up.
        Configuration controlTopics = new Configuration(options);
        if (options.get(DispatchOptions.KEEP_RUNNING)) {
            controlTopics.set(CommonOptions.KAFKA_BOUNDED, false);
        }
        DataStream<String> rules =
                env.fromSource(
                                KafkaIO.textInput(controlTopics, Topics.RULES, groupId + "-rules"),
                                NoEventTime.strategy(),
                                "Kafka rules")
                        .uid("source-kafka-rules")
                        .setParallelism(1);
        GateSettings gate = GateSettings.from(options);
        PacingSettings pacing = PacingSettings.from(options, gate);
        DataStream<String> feedback = null;
        DataStream<String> reports = null;
        if (pacing != null && audience.audiences != null) {
            reports =
                    env.fromSource(
                                    KafkaIO.textInput(
                                            controlTopics,
                                            Topics.PACING_STATUS,
                                            groupId + "-pacing"),
                                    NoEventTime.strategy(),
                                    "Kafka pacing reports")
                            .uid("source-kafka-pacing")
                            .setParallelism(1);
        }
        if (pacing != null) {
            feedback =
                    env.fromSource(
                                    KafkaIO.textInput(
                                            controlTopics,
                                            options.get(DispatchOptions.PACING_FEEDBACK_TOPIC),
                                            groupId + "-feedback"),
                                    NoEventTime.strategy(),
                                    "Kafka vendor feedback")
                            .uid("source-kafka-feedback")
                            .setParallelism(1);
        }
        DispatchStreams streams =
                build(
                        input,
                        rules,
                        feedback,
                        reports,
                        gate,
                        audience,
                        pacing,
                        reminders,
                        maxParallelism);
        DispatchSinks sinks = DispatchKafkaSinks.of(options);
        streams = InboxWriting.attach(env, options, streams, audience, groupId, maxParallelism);
        sinkTo(streams, sinks);
    }

    /** Starts the job and returns at once; the job runs until cancelled (or its input ends). */
    public static JobClient start(StreamExecutionEnvironment env, Configuration options)
            throws Exception {
        wire(env, options);
        return env.executeAsync(NAME);
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        DispatchOptions.accepted(),
                        o -> {
                            OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP);
                            PacingSettings.from(o, GateSettings.from(o));
                            AudienceSettings.from(o);
                            ReminderSettings.from(o);
                        });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, options);
        env.execute(NAME);
    }
}
