package io.pushline.dispatch;

import io.pushline.common.BrokerLogEnds;
import io.pushline.common.CommonOptions;
import io.pushline.common.IdleAdvancingWatermarks;
import io.pushline.common.KafkaIO;
import io.pushline.common.NoEventTime;
import io.pushline.common.OptionsParser;
import io.pushline.common.SplitTrackingSource;
import io.pushline.schema.Decision;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.pacing.PacingControl;
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
 *                └─ audience, long list ─ expand (1) ─ chunks ─ resolve ids (rebalance) ─┘
 *                                         (a long device list's chunks go to the registry)
 *
 * sends ─ pace (vendor) ─ vendor topics      rules, vendor.feedback ─ controls (vendor) ─┘
 * </pre>
 *
 * Every keyed stage decides in event-time order (see EventTimeQueue), so the job's decisions are
 * those of the input sorted by time, as the contract in docs/dispatch-gate.md requires.
 *
 * <p>{@link #build} composes the decision path from {@link DispatchInputs} with the stages {@link
 * DispatchSettings} turns on, one class per capability: {@link RequestStages} (split, scheduled
 * requests), {@link DeviceStages} (registry, uid index), {@link CampaignStages} (campaign
 * expansion, with {@link ReminderStages}), {@link GateStage} and {@link PacingStages} (reminder
 * meter, pacer); their dead letters are gathered in {@link DeadLetters}. {@link #wire} adds
 * production's sources, the inbox writing ({@link InboxWriting}) and the sinks ({@link
 * DispatchKafkaSinks}, attached by {@link DispatchSinks#attach}).
 */
public final class DispatchJob {
    public static final String NAME = "pushline-dispatch";

    private DispatchJob() {}

    /**
     * Wires the decision path from {@code in} with the stages {@code settings} turns on, and
     * returns what it produces for the caller's sinks.
     */
    public static DispatchStreams build(DispatchInputs in, DispatchSettings settings) {
        GateSettings gate = settings.gate();
        AudienceSettings audience = settings.audience();
        PacingSettings pacing = settings.pacing();
        ReminderSettings reminders = settings.reminders();
        int maxParallelism = settings.maxParallelism();
        DataStream<ParsedRecord> input = in.records();
        DataStream<String> rulesUpdates = in.rulesUpdates();
        DataStream<String> vendorFeedback = in.vendorFeedback();
        DataStream<String> pacingReports = in.pacingReports();
        boolean campaigns = settings.campaigns();
        DeadLetters deadLetters = new DeadLetters();
        RequestStages requests =
                RequestStages.wire(
                        input,
                        campaigns ? pacingReports : null,
                        gate,
                        campaigns,
                        audience.chunkListsOver,
                        audience.releaseRate,
                        audience.backlogTargetMs(pacing),
                        deadLetters,
                        maxParallelism);
        deadLetters.add(requests.routed(DispatchTags.DEAD_LETTERS));
        DataStream<RegistryInput> toDevices = requests.toDevices();
        CampaignStages campaignStages = null;
        if (campaigns) {
            campaignStages =
                    CampaignStages.wire(
                            requests, audience, pacing, reminders, deadLetters, maxParallelism);
            toDevices = toDevices.union(campaignStages.devices());
        }
        SingleOutputStreamOperator<DevicePush> registry =
                DeviceStages.registry(toDevices, maxParallelism);
        DataStream<UidKeyed> byUid =
                requests.routed(DispatchTags.UID_KEYED)
                        .union(registry.getSideOutput(DispatchTags.UID_KEYED));
        if (campaigns) {
            byUid = byUid.union(campaignStages.uids());
        }
        SingleOutputStreamOperator<DevicePush> uidIndex =
                DeviceStages.uidIndex(byUid, maxParallelism);
        GateStage gated =
                GateStage.wire(registry.union(uidIndex), rulesUpdates, gate, maxParallelism);
        deadLetters.of(gated.rules());
        deadLetters.of(registry);
        deadLetters.of(uidIndex);
        deadLetters.of(gated.decided());
        PacingStages paced =
                PacingStages.wire(
                        gated.decided().getSideOutput(DispatchTags.SENDS),
                        gated.rules(),
                        vendorFeedback,
                        pacing,
                        reminders,
                        deadLetters,
                        maxParallelism);
        DataStream<Decision> decisions =
                gated.decided()
                        .union(
                                registry.getSideOutput(DispatchTags.DECISIONS),
                                uidIndex.getSideOutput(DispatchTags.DECISIONS));
        if (paced.expired() != null) {
            decisions = decisions.union(paced.expired());
        }
        return new DispatchStreams(
                paced.sends(),
                decisions,
                deadLetters.union(),
                registry.getSideOutput(DispatchTags.REGISTRY_CHANGES),
                paced.reports(),
                campaignStages == null ? null : campaignStages.reminderRejected(),
                requests.routed(DispatchTags.INBOX)
                        .union(registry.getSideOutput(DispatchTags.INBOX)),
                paced.reminderSends(),
                campaignStages == null ? null : campaignStages.reminderPulled());
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
        DispatchSettings settings = DispatchSettings.from(options);
        int maxParallelism = settings.maxParallelism();
        env.setMaxParallelism(maxParallelism);
        String groupId = options.get(DispatchOptions.GROUP_ID);

        List<String> topics = new ArrayList<>(List.of(Topics.DEVICE_EVENTS, Topics.PUSH_REQUESTS));
        if (settings.reminders() != null) {
            topics.add(Topics.REMINDER_TASKS);
            topics.add(Topics.REMINDER_SUBSCRIPTIONS);
        }
        WatermarkStrategy<ParsedRecord> watermarks =
                IdleAdvancingWatermarks.strategy(
                        options.get(DispatchOptions.MAX_OUT_OF_ORDERNESS),
                        options.get(DispatchOptions.IDLE_ADVANCE),
                        options.get(DispatchOptions.MAX_FUTURE),
                        BrokerLogEnds.of(options, groupId));
        DataStream<ParsedRecord> input =
                env.fromSource(
                                SplitTrackingSource.of(
                                        KafkaIO.dispatchInput(options, groupId, topics)),
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
        DataStream<String> feedback = null;
        DataStream<String> reports = null;
        boolean pacing = settings.pacing() != null;
        if (pacing && settings.campaigns()) {
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
        if (pacing) {
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
                build(new DispatchInputs(input, rules, feedback, reports), settings);
        DispatchSinks sinks = DispatchKafkaSinks.of(options);
        streams =
                InboxWriting.attach(
                        env, options, streams, settings.audience(), groupId, maxParallelism);
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
