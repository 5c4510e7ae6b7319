package io.pushline.receipts;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBasePutSink;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricDelta;
import io.pushline.schema.receipts.MetricPartial;
import io.pushline.schema.receipts.MetricRow;
import io.pushline.schema.receipts.ReceiptEvent;
import io.pushline.schema.receipts.ReceiptTags;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The receipts job (streaming): the gate's decisions and the vendors' receipts into metrics per
 * minute and per day, a lifecycle per (message, device), and unbinds for invalid tokens.
 *
 * <pre>
 * push.decisions ┐                            ┌ lifecycle upserts ─ HBase push_lifecycle
 * push.receipts ─┴ parse ─ keyBy(msgId, device) lifecycle ┼ token_invalid ─ device.events (unbind)
 *                  └ bad ─ push.dlq                        └ counts ─ minute windows ─ HBase push_metrics
 *                                                                   └ day windows ─ HBase push_metrics_daily
 *                                                                     (both also on push.metrics)
 * </pre>
 */
public final class ReceiptsJob {
    public static final String NAME = "pushline-receipts";

    private ReceiptsJob() {}

    /** The job's settings, checked: a bad one stops start-up naming its key. */
    public static final class Settings implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final int maxParallelism;
        final Duration allowedLateness;
        final Duration decisionWait;
        final Duration stateTtl;

        Settings(Configuration o) {
            maxParallelism = o.get(ReceiptsOptions.MAX_PARALLELISM);
            allowedLateness = nonNegative(o, ReceiptsOptions.ALLOWED_LATENESS);
            decisionWait = nonNegative(o, ReceiptsOptions.DECISION_WAIT);
            stateTtl = nonNegative(o, ReceiptsOptions.STATE_TTL);
            nonNegative(o, ReceiptsOptions.MAX_OUT_OF_ORDERNESS);
            nonNegative(o, ReceiptsOptions.IDLE_TIMEOUT);
            if (stateTtl.isZero()) {
                throw new OptionsParser.InvalidOptionException(
                        "option '" + ReceiptsOptions.STATE_TTL.key() + "' must be > 0");
            }
        }

        public static Settings from(Configuration options) {
            return new Settings(options);
        }

        private static Duration nonNegative(
                Configuration o, org.apache.flink.configuration.ConfigOption<Duration> option) {
            Duration d = o.get(option);
            if (d.isNegative()) {
                throw new OptionsParser.InvalidOptionException(
                        "option '" + option.key() + "' must not be negative, got " + d);
            }
            return d;
        }
    }

    /**
     * The receipts topology over parsed input (with event time); {@link #sinkTo} sends what it
     * produces to the sinks. Turns on object reuse: no operator here changes or keeps a record it
     * was given (each emits fresh objects), so chained operators need no defensive copies.
     */
    public static ReceiptsStreams build(DataStream<ReceiptEvent> input, Settings s) {
        input.getExecutionEnvironment().getConfig().enableObjectReuse();
        SingleOutputStreamOperator<ReceiptEvent> valid =
                input.process(new RouteDeadLetters())
                        .uid("split-dead-letters")
                        .name("Split bad records");
        SingleOutputStreamOperator<MetricDelta> counts =
                valid.keyBy(ReceiptEvent::lifecycleKey)
                        .process(new LifecycleFunction(s.stateTtl, s.decisionWait))
                        .uid("lifecycle")
                        .name("Lifecycle per message and device")
                        .setMaxParallelism(s.maxParallelism);
        DataStream<MetricPartial> partials =
                counts.transform(
                                "Add up counts per minute",
                                TypeInformation.of(MetricPartial.class),
                                new PreAggregate())
                        .uid("pre-aggregate");
        SingleOutputStreamOperator<MetricRow> minutes =
                window(partials, Duration.ofMinutes(1), MetricRow.MINUTE, s)
                        .uid("metrics-minute")
                        .name("Metrics per minute");
        SingleOutputStreamOperator<MetricRow> days =
                window(partials, Duration.ofDays(1), MetricRow.DAY, s)
                        .uid("metrics-day")
                        .name("Metrics per day");

        DataStream<DeadLetter> tooLate =
                minutes.getSideOutput(ReceiptTags.TOO_LATE)
                        .map(d -> tooLate(d, MetricRow.MINUTE, s))
                        .returns(DeadLetter.class)
                        .uid("too-late-minute")
                        .name("Too late for the minute table")
                        .union(
                                days.getSideOutput(ReceiptTags.TOO_LATE)
                                        .map(d -> tooLate(d, MetricRow.DAY, s))
                                        .returns(DeadLetter.class)
                                        .uid("too-late-day")
                                        .name("Too late for the day table"));

        DataStream<Lifecycle> lifecycles =
                counts.getSideOutput(ReceiptTags.LIFECYCLE)
                        .transform(
                                "Newest lifecycle per message between watermarks",
                                TypeInformation.of(Lifecycle.class),
                                new LatestLifecycle())
                        .uid("latest-lifecycle");
        return new ReceiptsStreams(
                minutes,
                days,
                lifecycles,
                counts.getSideOutput(ReceiptTags.UNBIND),
                valid.getSideOutput(ReceiptTags.DEAD_LETTERS)
                        .union(tooLate, counts.getSideOutput(ReceiptTags.DEAD_LETTERS)));
    }

    /** Sends each stream of the topology to its sink, with the sinks' stable uids. */
    public static void sinkTo(ReceiptsStreams streams, ReceiptsSinks sinks) {
        streams.minutes()
                .sinkTo(sinks.minuteTable())
                .uid("sink-hbase-metrics")
                .name("HBase push_metrics");
        streams.days()
                .sinkTo(sinks.dayTable())
                .uid("sink-hbase-metrics-daily")
                .name("HBase push_metrics_daily");
        streams.minutes()
                .union(streams.days())
                .sinkTo(sinks.metricsTopic())
                .uid("sink-metrics-topic")
                .name("push.metrics");
        streams.lifecycles()
                .sinkTo(sinks.lifecycle())
                .uid("sink-hbase-lifecycle")
                .name("HBase push_lifecycle");
        streams.unbinds()
                .sinkTo(sinks.unbinds())
                .uid("sink-unbinds")
                .name("device.events (unbind)");
        streams.deadLetters().sinkTo(sinks.deadLetters()).uid("sink-dead-letters").name("push.dlq");
    }

    private static SingleOutputStreamOperator<MetricRow> window(
            DataStream<MetricPartial> partials, Duration size, String grain, Settings s) {
        return partials.keyBy(p -> p.key)
                .window(TumblingEventTimeWindows.of(size))
                .allowedLateness(s.allowedLateness)
                .sideOutputLateData(ReceiptTags.TOO_LATE)
                .aggregate(new MergePartials(), new MetricWindow(grain))
                .setMaxParallelism(s.maxParallelism);
    }

    static DeadLetter tooLate(MetricPartial p, String grain, Settings s) {
        String[] key = p.key.split("\0", -1);
        return DeadLetter.of(
                "receipts",
                key[0] + "@" + java.time.Instant.ofEpochMilli(p.minute),
                "later than receipts.allowed-lateness ("
                        + s.allowedLateness
                        + ") after its "
                        + grain
                        + ": not counted in the "
                        + grain
                        + " table (the lifecycle rows have them)",
                Json.write(p));
    }

    /** Bad records to the dead-letter output, the rest on. */
    static final class RouteDeadLetters extends ProcessFunction<ReceiptEvent, ReceiptEvent> {
        private static final long serialVersionUID = 1L;

        @Override
        public void processElement(ReceiptEvent e, Context ctx, Collector<ReceiptEvent> out) {
            if (e.dead != null) {
                ctx.output(ReceiptTags.DEAD_LETTERS, e.dead);
            } else {
                out.collect(e);
            }
        }
    }

    /** {@code push.decisions} and {@code push.receipts}, parsed, read committed. */
    static KafkaSource<ReceiptEvent> kafkaInput(Configuration o) {
        KafkaSourceBuilder<ReceiptEvent> b =
                KafkaSource.<ReceiptEvent>builder()
                        .setBootstrapServers(
                                OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP))
                        .setTopics(Topics.DECISIONS, Topics.RECEIPTS)
                        .setGroupId(o.get(ReceiptsOptions.GROUP_ID))
                        .setStartingOffsets(KafkaIO.startingOffsets(o))
                        .setDeserializer(new ReceiptRecords())
                        // TLS, SASL and any other client setting, as every other job's clients
                        .setProperties(KafkaIO.clientProperties(o))
                        .setProperty("isolation.level", "read_committed")
                        .setProperty("commit.offsets.on.checkpoint", "true");
        if (o.get(CommonOptions.KAFKA_BOUNDED)) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    public static WatermarkStrategy<ReceiptEvent> watermarks(Configuration o) {
        WatermarkStrategy<ReceiptEvent> w =
                WatermarkStrategy.<ReceiptEvent>forBoundedOutOfOrderness(
                                o.get(ReceiptsOptions.MAX_OUT_OF_ORDERNESS))
                        .withTimestampAssigner((e, t) -> e.timestamp());
        Duration idle = o.get(ReceiptsOptions.IDLE_TIMEOUT);
        return idle.isZero() ? w : w.withIdleness(idle);
    }

    static ReceiptsSinks kafkaAndHBaseSinks(Configuration o) throws Exception {
        String quorum = HBaseTables.requireAddress(o);
        String namespace = o.get(CommonOptions.HBASE_NAMESPACE);
        if (o.get(CommonOptions.HBASE_CREATE_TABLES)) {
            try (Connection c =
                    ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
                ReceiptTables.ensure(c, namespace);
            }
        }
        // Rows are upserts and unbinds idempotent: at least once, seen at once.
        return new ReceiptsSinks(
                new HBasePutSink<>(quorum, namespace, ReceiptTables.METRICS, ReceiptTables::put),
                new HBasePutSink<>(
                        quorum, namespace, ReceiptTables.METRICS_DAILY, ReceiptTables::put),
                KafkaIO.jsonAtLeastOnceSink(o, r -> Topics.METRICS, MetricRow::key),
                new HBasePutSink<>(quorum, namespace, ReceiptTables.LIFECYCLE, ReceiptTables::put),
                KafkaIO.jsonAtLeastOnceSink(o, e -> Topics.DEVICE_EVENTS, e -> e.deviceId),
                KafkaIO.jsonAtLeastOnceSink(o, d -> Topics.DLQ, d -> null));
    }

    public static void wire(StreamExecutionEnvironment env, Configuration o) throws Exception {
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        pipeline.set(PipelineOptions.NAME, NAME);
        env.configure(pipeline);
        Settings s = Settings.from(o);
        env.setMaxParallelism(s.maxParallelism);
        DataStream<ReceiptEvent> input =
                env.fromSource(kafkaInput(o), watermarks(o), "Kafka decisions and receipts")
                        .uid("source-kafka");
        sinkTo(build(input, s), kafkaAndHBaseSinks(o));
    }

    /** Starts the job and returns at once. */
    public static JobClient start(StreamExecutionEnvironment env, Configuration o)
            throws Exception {
        wire(env, o);
        return env.executeAsync(NAME);
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        ReceiptsOptions.accepted(),
                        o -> {
                            OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP);
                            OptionsParser.require(o, CommonOptions.HBASE_ZK_QUORUM);
                            Settings.from(o);
                        });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, options);
        env.execute(NAME);
    }
}
