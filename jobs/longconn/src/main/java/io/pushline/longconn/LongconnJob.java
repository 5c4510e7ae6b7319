package io.pushline.longconn;

import io.pushline.common.BrokerLogEnds;
import io.pushline.common.CommonOptions;
import io.pushline.common.IdleAdvancingWatermarks;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.common.SplitTrackingSource;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.LongconnReceipt;
import io.pushline.schema.longconn.LongconnTags;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The long-connection job (jobs/longconn/README.md): committed first sends of {@code
 * push.vendor.longconn}, client acks and presence, through the ack tracker keyed by device; retries
 * back to {@code push.vendor.longconn}, fallbacks to the device's vendor topic, undeliverable
 * fallbacks to {@code push.decisions}, acks, retries, fallbacks and give-ups to {@code
 * push.receipts}, bad records to {@code push.dlq}; every sink exactly once.
 */
public final class LongconnJob {
    public static final String NAME = "pushline-longconn";

    /** The topics the job reads. */
    public static final List<String> INPUTS =
            List.of(LongconnRecords.SENDS, Topics.LONGCONN_ACKS, Topics.LONGCONN_PRESENCE);

    private LongconnJob() {}

    /** What leaves the job. */
    public record Streams(
            DataStream<SendRecord> sends,
            DataStream<Decision> undeliverable,
            DataStream<LongconnReceipt> receipts,
            DataStream<DeadLetter> deadLetters) {}

    /** Where it goes. */
    public record Sinks(
            Sink<SendRecord> sends,
            Sink<Decision> decisions,
            Sink<LongconnReceipt> receipts,
            Sink<DeadLetter> deadLetters) {}

    /** The topology over parsed input (event time assigned); tests give it finite input. */
    public static Streams build(
            DataStream<ParsedRecord> input,
            AckRules rules,
            Duration maxFuture,
            Duration stateTtl,
            int maxParallelism) {
        SingleOutputStreamOperator<LongconnEvent> events =
                input.process(new SplitInput(maxFuture))
                        .uid("split-longconn-input")
                        .name("Long-connection input")
                        .setMaxParallelism(maxParallelism);
        Tracking.Streams tracked = Tracking.build(events, rules, stateTtl, maxParallelism);
        SingleOutputStreamOperator<SendRecord> sends =
                tracked.actions()
                        .process(new Deliveries())
                        .uid("longconn-deliveries")
                        .name("Retries and fallbacks")
                        .setMaxParallelism(maxParallelism);
        return new Streams(
                sends,
                sends.getSideOutput(LongconnTags.UNDELIVERABLE),
                sends.getSideOutput(LongconnTags.RECEIPTS),
                events.getSideOutput(DispatchTags.DEAD_LETTERS).union(tracked.deadLetters()));
    }

    public static void sinkTo(Streams s, Sinks sinks) {
        s.sends().sinkTo(sinks.sends()).uid("sink-longconn-sends").name("Vendor topics");
        s.undeliverable()
                .sinkTo(sinks.decisions())
                .uid("sink-longconn-decisions")
                .name("Undeliverable decisions");
        s.receipts().sinkTo(sinks.receipts()).uid("sink-longconn-receipts").name("Receipts");
        s.deadLetters().sinkTo(sinks.deadLetters()).uid("sink-longconn-dlq").name("Dead letters");
    }

    /** Wires the job against Kafka from typed options. */
    public static void wire(StreamExecutionEnvironment env, Configuration options) {
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        pipeline.set(PipelineOptions.NAME, NAME);
        env.configure(pipeline);
        int maxParallelism = options.get(LongconnOptions.MAX_PARALLELISM);
        env.setMaxParallelism(maxParallelism);
        AckRules rules = LongconnOptions.rules(options);
        WatermarkStrategy<ParsedRecord> watermarks =
                IdleAdvancingWatermarks.strategy(
                        options.get(LongconnOptions.MAX_OUT_OF_ORDERNESS),
                        options.get(LongconnOptions.IDLE_ADVANCE),
                        options.get(LongconnOptions.MAX_FUTURE),
                        BrokerLogEnds.of(options, options.get(LongconnOptions.GROUP_ID)));
        DataStream<ParsedRecord> input =
                env.fromSource(
                                SplitTrackingSource.of(
                                        KafkaIO.parsedInput(
                                                options,
                                                options.get(LongconnOptions.GROUP_ID),
                                                INPUTS,
                                                new LongconnRecords())),
                                watermarks,
                                "Kafka long-connection input")
                        .uid("source-kafka-longconn")
                        .setMaxParallelism(maxParallelism);
        Streams streams =
                build(
                        input,
                        rules,
                        options.get(LongconnOptions.MAX_FUTURE),
                        options.get(LongconnOptions.STATE_TTL),
                        maxParallelism);
        String prefix = options.get(LongconnOptions.TRANSACTIONAL_ID_PREFIX);
        sinkTo(
                streams,
                new Sinks(
                        KafkaIO.jsonSink(
                                options,
                                prefix,
                                "sends",
                                Topics.VENDOR_TOPICS,
                                s -> Topics.vendorTopic(s.vendor),
                                s -> s.deviceId),
                        KafkaIO.jsonSink(
                                options, prefix, "decisions", Topics.DECISIONS, d -> d.deviceId),
                        KafkaIO.jsonSink(
                                options, prefix, "receipts", Topics.RECEIPTS, r -> r.deviceId),
                        KafkaIO.jsonSink(options, prefix, "dlq", Topics.DLQ, d -> null)));
    }

    /** Starts the job and returns at once; it runs until cancelled. */
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
                        LongconnOptions.accepted(),
                        o -> {
                            OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP);
                            LongconnOptions.rules(o);
                        });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, options);
        env.execute(NAME);
    }
}
