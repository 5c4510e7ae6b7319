package io.pushline.gateway;

import io.pushline.common.CommonOptions;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Topics;
import io.pushline.schema.VendorFeedback;
import io.pushline.schema.gateway.GatewayInput;
import io.pushline.schema.gateway.GatewayReceipt;
import io.pushline.schema.gateway.SendBatch;
import io.pushline.vendors.VendorSettings;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The gateway job (jobs/gateway/README.md): each enabled vendor's topic {@code push.vendor.<v>},
 * read committed by a source of its own, batched by message where the vendor takes many tokens per
 * call, sent with the vendor's protocol through Flink's async I/O (bounded in flight per vendor),
 * answered with receipts on {@code push.receipts} and throttle reports on {@code vendor.feedback},
 * both exactly once with the checkpoints; bad records to {@code push.dlq}.
 */
public final class GatewayJob {
    public static final String NAME = "pushline-gateway";

    private GatewayJob() {}

    /** What leaves the job. */
    public record Streams(
            DataStream<GatewayReceipt> receipts,
            DataStream<VendorFeedback> feedback,
            DataStream<DeadLetter> deadLetters) {}

    /** Where it goes. */
    public record Sinks(
            Sink<GatewayReceipt> receipts,
            Sink<VendorFeedback> feedback,
            Sink<DeadLetter> deadLetters) {}

    /** How the vendors are called. */
    public record Calls(
            int maxInFlight,
            long lingerMs,
            long callTimeoutMs,
            int retries,
            long backoffMs,
            int apnsConnections,
            Properties answeredLog) {
        /** From options; the answer log on the job's Kafka unless gateway.answered-log is off. */
        static Calls of(Configuration o) {
            Properties log = null;
            if (o.get(GatewayOptions.ANSWERED_LOG)) {
                log = KafkaIO.clientProperties(o);
                log.put("bootstrap.servers", o.get(CommonOptions.KAFKA_BOOTSTRAP));
            }
            return new Calls(
                    o.get(GatewayOptions.MAX_IN_FLIGHT),
                    o.get(GatewayOptions.LINGER).toMillis(),
                    o.get(GatewayOptions.CALL_TIMEOUT).toMillis(),
                    o.get(GatewayOptions.RETRIES),
                    o.get(GatewayOptions.BACKOFF).toMillis(),
                    o.get(GatewayOptions.APNS_CONNECTIONS),
                    log);
        }

        /** Async I/O's timeout: every call and wait a send may take, then a failed receipt. */
        long operatorTimeoutMs() {
            return (callTimeoutMs + Math.max(backoffMs << Math.min(retries, 10), 60_000))
                    * (retries + 1);
        }
    }

    /** The topology over each vendor's input; tests give it finite input. */
    public static Streams build(
            Map<VendorSettings, DataStream<GatewayInput>> inputs, Calls calls, int maxParallelism) {
        DataStream<GatewayReceipt> answers = null;
        DataStream<DeadLetter> dead = null;
        for (Map.Entry<VendorSettings, DataStream<GatewayInput>> e : inputs.entrySet()) {
            VendorSettings s = e.getKey();
            String v = s.vendor().wireName();
            int maxBatch = maxBatch(s);
            SingleOutputStreamOperator<SendBatch> batches =
                    e.getValue()
                            .transform(
                                    "Batches of " + v,
                                    TypeInformation.of(SendBatch.class),
                                    new SendBatcher(v, maxBatch, calls.lingerMs()))
                            .uid("gateway-batch-" + v)
                            .setMaxParallelism(maxParallelism);
            SingleOutputStreamOperator<GatewayReceipt> sent =
                    AsyncDataStream.unorderedWait(
                                    batches,
                                    new VendorSender(
                                            s,
                                            calls.retries(),
                                            calls.backoffMs(),
                                            calls.apnsConnections(),
                                            calls.answeredLog()),
                                    calls.operatorTimeoutMs(),
                                    TimeUnit.MILLISECONDS,
                                    calls.maxInFlight())
                            .uid("gateway-send-" + v)
                            .name("Send to " + v)
                            .setMaxParallelism(maxParallelism);
            answers = answers == null ? sent : answers.union(sent);
            DataStream<DeadLetter> d = batches.getSideOutput(SendBatcher.DEAD_LETTERS);
            dead = dead == null ? d : dead.union(d);
        }
        if (answers == null) {
            throw new OptionsParser.InvalidOptionException(
                    GatewayOptions.ENABLED.key() + ": no vendor to send to");
        }
        SingleOutputStreamOperator<GatewayReceipt> receipts =
                answers.process(new SplitFeedback())
                        .uid("gateway-split-feedback")
                        .name("Receipts and pacer feedback")
                        .setMaxParallelism(maxParallelism);
        return new Streams(receipts, receipts.getSideOutput(SplitFeedback.FEEDBACK), dead);
    }

    /** The sends one call may carry: the vendor's limit (one where it sends one token a call). */
    static int maxBatch(VendorSettings s) {
        switch (s.vendor()) {
            case APNS:
            case FCM:
                return 1;
            default:
                return 1_000;
        }
    }

    public static void sinkTo(Streams s, Sinks sinks) {
        s.receipts().sinkTo(sinks.receipts()).uid("sink-gateway-receipts").name("Receipts");
        s.feedback().sinkTo(sinks.feedback()).uid("sink-gateway-feedback").name("Pacer feedback");
        s.deadLetters().sinkTo(sinks.deadLetters()).uid("sink-gateway-dlq").name("Dead letters");
    }

    /** Wires the job against Kafka from typed options. */
    public static void wire(StreamExecutionEnvironment env, Configuration options) {
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        pipeline.set(PipelineOptions.NAME, NAME);
        env.configure(pipeline);
        int maxParallelism = options.get(GatewayOptions.MAX_PARALLELISM);
        env.setMaxParallelism(maxParallelism);
        String group = options.get(GatewayOptions.GROUP_ID);
        Map<VendorSettings, DataStream<GatewayInput>> inputs = new java.util.LinkedHashMap<>();
        for (VendorSettings s : GatewayOptions.vendors(options)) {
            String v = s.vendor().wireName();
            inputs.put(
                    s,
                    env.fromSource(
                                    KafkaIO.input(
                                            options,
                                            group,
                                            List.of(s.vendor().topic()),
                                            new GatewayRecords(v)),
                                    WatermarkStrategy.noWatermarks(),
                                    "Kafka " + s.vendor().topic())
                            .uid("source-kafka-" + v)
                            .setMaxParallelism(maxParallelism));
        }
        Streams streams = build(inputs, Calls.of(options), maxParallelism);
        String prefix = options.get(GatewayOptions.TRANSACTIONAL_ID_PREFIX);
        sinkTo(
                streams,
                new Sinks(
                        KafkaIO.jsonSink(
                                options, prefix, "receipts", Topics.RECEIPTS, r -> r.deviceId),
                        KafkaIO.jsonSink(
                                options, prefix, "feedback", Topics.VENDOR_FEEDBACK, f -> f.vendor),
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
                        GatewayOptions.accepted(),
                        o -> {
                            OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP);
                            GatewayOptions.vendors(o);
                        });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, options);
        env.execute(NAME);
    }
}
