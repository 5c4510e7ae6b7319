package io.pushline.bench;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.roaringbitmap.RoaringBitmap;

/**
 * A campaign of {@code n} devices through the dispatch job on the embedded stack (parallelism 2,
 * RocksDB, exactly-once Kafka sinks): n uids in the dictionary, one segment of all of them, one
 * bound device each; the binds are loaded first (a marker push tells when), then the campaign is
 * sent and timed from its production to the last committed send in the vendor topics.
 */
final class CampaignBench {
    static final long T = 1_767_225_600_000L;
    static final String CAMPAIGN = "bench-campaign";

    /** Uids assigned per dictionary call: the batch size above which HBase logs a warning. */
    static final int BATCH = 5_000;

    private CampaignBench() {}

    /** Binds per second through the dispatch job (with its start), campaign devices per second. */
    record Result(double bindsPerSecond, double devicesPerSecond) {}

    static Result run(LocalStack stack, int n) throws Exception {
        String namespace = "benchcampaign";
        everyone(stack, namespace, n);

        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.all(), 2);
        Vendor[] vendors = Vendor.values();
        try (KafkaProducer<String, String> p = producer(kafka)) {
            for (int i = 0; i < n; i++) {
                String d = "d" + i;
                p.send(
                        new ProducerRecord<>(
                                Topics.DEVICE_EVENTS,
                                d,
                                String.format(
                                        "{\"ts\":%d,\"type\":\"bind\",\"deviceId\":\"%s\",\"uid\":\"%s\","
                                                + "\"vendor\":\"%s\",\"token\":\"t%d\"}",
                                        T, d, uid(i), vendors[i % vendors.length].wireName(), i)));
            }
            p.send(
                            new ProducerRecord<>(
                                    Topics.PUSH_REQUESTS,
                                    "marker",
                                    push("marker", T + 500, "{\"uids\":[\"" + uid(0) + "\"]}")))
                    .get();
            tick(p, T + 3_000);
        }

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), namespace);
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        // Event time moves only with the input (ticks), never with the wall clock: under
        // backpressure a busy partition looks idle and its binds would arrive late.
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "bench-campaign");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        LocalFlink.withProductionFlush(stack.flinkConfiguration()));
        env.setParallelism(2);
        long t1 = System.nanoTime();
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        try (KafkaConsumer<byte[], byte[]> sends = sends(kafka)) {
            waitFor(sends, "marker", 1);
            long t2 = System.nanoTime();
            System.out.printf(
                    "  %,d binds loaded through the dispatch job in %.1f s (%,.0f binds/s, with job"
                            + " start)%n",
                    n, (t2 - t1) / 1e9, n / ((t2 - t1) / 1e9));
            double binds = n / ((t2 - t1) / 1e9);
            try (KafkaProducer<String, String> p = producer(kafka)) {
                p.send(
                                new ProducerRecord<>(
                                        Topics.PUSH_REQUESTS,
                                        CAMPAIGN,
                                        push(CAMPAIGN, T + 10_000, "{\"audience\":\"everyone\"}")))
                        .get();
                tick(p, T + 13_000);
            }
            long t3 = System.nanoTime();
            waitFor(sends, CAMPAIGN, n);
            double s = (System.nanoTime() - t3) / 1e9;
            System.out.printf(
                    "Campaign to %,d devices: last send committed %.1f s after the request ="
                            + " %,.0f devices/s (expand, resolve, uid index, gate, exactly-once"
                            + " sinks)%n",
                    n, s, n / s);
            return new Result(binds, n / s);
        } finally {
            job.cancel().get();
        }
    }

    /**
     * {@code n} uids ({@code user-0} ...) in the dictionary of {@code namespace} and one segment,
     * {@code everyone}, holding them all.
     */
    static void everyone(LocalStack stack, String namespace, int n) throws Exception {
        try (Connection c = stack.hbase().newConnection()) {
            everyone(c, namespace, n);
        }
    }

    /** The same through a connection of the caller's (a cluster's HBase, say). */
    static void everyone(Connection c, String namespace, int n) throws Exception {
        long t0 = System.nanoTime();
        HBaseTables.ensure(c, namespace);
        RoaringBitmap all = new RoaringBitmap();
        try (IdDictionary dict = new IdDictionary(c, namespace, 0)) {
            for (int from = 0; from < n; from += BATCH) {
                List<String> batch = new ArrayList<>();
                for (int i = from; i < Math.min(n, from + BATCH); i++) {
                    batch.add(uid(i));
                }
                dict.assignAll(batch).values().forEach(all::add);
            }
        }
        IdSet segment = IdSet.wrap(all);
        try (SegmentStore store = new SegmentStore(c, namespace)) {
            store.write("everyone", segment.toBytes(), segment.cardinality(), "bench");
        }
        System.out.printf(
                "Campaign: %,d uids in the dictionary and segment 'everyone' in %.1f s%n",
                n, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * A record on every partition of both input topics at {@code ts}, so the watermark passes what
     * came before: a switch of an unbound device (ignored) and a push to a uid without devices (one
     * {@code no_device} decision).
     */
    private static void tick(KafkaProducer<String, String> p, long ts) throws Exception {
        for (int partition = 0; partition < 2; partition++) {
            p.send(
                    new ProducerRecord<>(
                            Topics.DEVICE_EVENTS,
                            partition,
                            "tick",
                            String.format(
                                    "{\"ts\":%d,\"type\":\"switch\",\"deviceId\":\"tick\","
                                            + "\"enabled\":true}",
                                    ts)));
            p.send(
                    new ProducerRecord<>(
                            Topics.PUSH_REQUESTS,
                            partition,
                            "tick",
                            push("tick-" + ts, ts, "{\"uids\":[\"nobody\"]}")));
        }
        p.flush();
    }

    private static String uid(int i) {
        return "user-" + i;
    }

    private static String push(String msgId, long ts, String target) {
        return String.format(
                "{\"ts\":%d,\"type\":\"push\",\"msgId\":\"%s\",\"msgType\":\"promo\",\"title\":\"t\","
                        + "\"body\":\"b\",\"target\":%s}",
                ts, msgId, target);
    }

    private static KafkaProducer<String, String> producer(String kafka) {
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("linger.ms", "20");
        p.put("batch.size", "262144");
        return new KafkaProducer<>(p);
    }

    private static KafkaConsumer<byte[], byte[]> sends(String kafka) {
        Properties p = KafkaIO.committedReader(kafka);
        p.put("group.id", "bench-campaign-reader");
        p.put("auto.offset.reset", "earliest");
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p);
        List<String> topics = new ArrayList<>();
        for (Vendor v : Vendor.values()) {
            topics.add(v.topic());
        }
        c.subscribe(topics);
        return c;
    }

    /** Reads committed sends until {@code count} of {@code msgId} were seen. */
    private static void waitFor(KafkaConsumer<byte[], byte[]> c, String msgId, int count) {
        byte[] needle = ("\"msgId\":\"" + msgId + "\"").getBytes(StandardCharsets.UTF_8);
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        int seen = 0;
        while (seen < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "only " + seen + " sends of " + msgId + " after 10 min");
            }
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                if (contains(r.value(), needle)) {
                    seen++;
                }
            }
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
