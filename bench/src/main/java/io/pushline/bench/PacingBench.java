package io.pushline.bench;

import io.pushline.common.CommonOptions;
import io.pushline.common.KafkaIO;
import io.pushline.common.UsageException;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.PacingSettings;
import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.local.EmbeddedKafka;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.pacing.PacingControl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench pacing}: three vendors at different rates, bulk backlogs at levels 0, 1
 * (the campaign) and 2, and realtime level-3 pushes produced to Kafka at random by this process,
 * through the dispatch job's pacer stage (parallelism 2, RocksDB, exactly-once Kafka sink) on the
 * embedded Kafka. Measures on what the vendor topics received, by the broker's append time: each
 * vendor's rate per second, each level's share, the realtime pushes' latency from their production
 * to visible (when a read_committed reader, as every gateway is, first sees the send: after the
 * checkpoint that commits its transaction), as {@code bench latency} measures. Writes the series to
 * CSV and an HTML chart.
 */
@Command(
        name = "pacing",
        mixinStandardHelpOptions = true,
        description = "Three paced vendors, weighted backlogs, realtime latency.")
final class PacingBench extends Bench {
    /**
     * Managed memory of one 2-slot TaskManager of k8s/base/dispatch.yaml: a 4096m process leaves
     * 3430m of Flink memory after metaspace and JVM overhead, and the managed fraction is 0.4.
     */
    static final String MANAGED_MEMORY = "1372m";

    static final String[] VENDORS = {"fcm", "huawei", "xiaomi"};
    static final double[] RATES = {6_000, 3_000, 1_000};
    static final int[] BULK_LEVELS = {0, 1, 2};
    static final int REALTIME_LEVEL = 3;

    @Option(
            names = "--devices",
            paramLabel = "N",
            description = "Campaign devices (default ${DEFAULT-VALUE}).")
    int campaign = 1_000_000;

    @Option(
            names = "--seconds",
            paramLabel = "S",
            description = "Seconds a round (default ${DEFAULT-VALUE}).")
    int seconds = 60;

    @Option(
            names = "--realtime-per-second",
            paramLabel = "R",
            description = "Realtime pushes a second (default ${DEFAULT-VALUE}).")
    int realtimePerSecond = 50;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "CSV and HTML chart (default ${DEFAULT-VALUE}).")
    Path out = LocalStack.defaultDir().resolve("bench");

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        if (seconds < 30) {
            throw new UsageException("--seconds must be at least 30 (10 s warm-up, 10 s windows)");
        }
        Files.createDirectories(out);
        // The machine's speed drifts and one process hosts Kafka, Flink and the reader on 2
        // cores: rounds of the whole run, each on a fresh broker, and the median of each figure.
        BenchResults results = results();
        for (int round = 1; round <= repeat; round++) {
            if (repeat > 1) {
                System.out.printf("round %d of %d%n", round, repeat);
            }
            Path dir = Files.createTempDirectory(out, "run-");
            PacingReport.Result r;
            try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
                r = measure(kafka, dir, out, campaign, seconds, realtimePerSecond, round);
            } finally {
                LocalStack.deleteRecursively(dir);
            }
            if (r == null) {
                return 1;
            }
            results.round(
                    BenchResults.figures(
                            "rateErrorPercent",
                            r.rateError() * 100,
                            "shareErrorPercent",
                            r.shareError() * 100,
                            "realtimeP99Ms",
                            r.realtimeP99Ms()));
        }
        results.put("devices", campaign);
        results.put("seconds", seconds);
        results.put("realtimePerSecond", realtimePerSecond);
        results.write();
        if (repeat > 1) {
            System.out.printf(
                    Locale.ROOT,
                    "rounds: rate error %s%%, share error %s%%, realtime p99 %s ms%n",
                    results.values("rateErrorPercent"),
                    results.values("shareErrorPercent"),
                    results.values("realtimeP99Ms"));
        }
        // Each round's rate and share errors are the worst vendor's and window's; the line gives
        // their median over the rounds and the spread (min-max). Until 2026-11-27 it printed the
        // median under the label "max".
        System.out.printf(
                Locale.ROOT,
                "median of %d rounds (min-max): rate error (worst vendor) %s%%, share error (worst"
                        + " level) %s%%, realtime p99 %s ms%n",
                repeat,
                results.medianAndSpread("rateErrorPercent", "%.2f"),
                results.medianAndSpread("shareErrorPercent", "%.2f"),
                results.medianAndSpread("realtimeP99Ms", "%.0f"));
        return 0;
    }

    private static PacingReport.Result measure(
            EmbeddedKafka kafka,
            Path dir,
            Path out,
            int campaign,
            int seconds,
            int realtime,
            int round)
            throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        for (String v : VENDORS) {
            topics.add(
                    new NewTopic(Topics.vendorTopic(v), 1, (short) 1)
                            .configs(Map.of("message.timestamp.type", "LogAppendTime")));
        }
        topics.add(new NewTopic(REALTIME_TOPIC, 2, (short) 1));
        kafka.admin().createTopics(topics).all().get();

        // levels 0 and 2 get half again what their weights can send in the run: never empty
        double all = Arrays.stream(RATES).sum();
        long level0 = (long) (all * seconds * 1.5 / 7);
        long level2 = (long) (all * seconds * 1.5 * 4 / 7);
        long bulk = level0 + campaign + level2;
        System.out.printf(
                "bench pacing: %s at %s/s; backlogs: level 0 %,d, level 1 (the campaign) %,d,"
                        + " level 2 %,d; realtime level 3 at ~%d/s at random; %d s%n",
                String.join(", ", VENDORS),
                Arrays.toString(RATES),
                level0,
                campaign,
                level2,
                realtime,
                seconds);

        Configuration flink = LocalFlink.configuration(dir.resolve("flink"));
        // Checkpoints as production runs them (deploy/flink-conf), each one a pause of the pacer's
        // thread for its synchronous part (made up from its credit), and each the moment the
        // realtime sends of its interval become visible to read_committed readers.
        LocalFlink.productionCheckpoints().forEach(flink::setString);
        // RocksDB's block cache and write buffers as k8s/base/dispatch.yaml gives one 2-slot
        // TaskManager, not the local stack's 256 MB.
        flink.setString("taskmanager.memory.managed.size", MANAGED_MEMORY);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        env.setMaxParallelism(128);
        DataStream<SendRecord> bulkSends =
                env.fromSource(
                                new DataGeneratorSource<>(
                                        i -> bulk(i, bulk, level0, campaign),
                                        bulk,
                                        TypeInformation.of(SendRecord.class)),
                                WatermarkStrategy.noWatermarks(),
                                "Bulk backlogs")
                        .uid("bench-bulk")
                        .map(new LoadMarker(bulk))
                        .uid("bench-bulk-loaded");
        // Realtime pushes come as a gateway-facing send does: produced to Kafka by this process
        // (RealtimeProducer, random gaps), read by the job, and timed from their production to
        // when a read_committed reader sees them on the vendor topics.
        Map<String, String> source = new HashMap<>();
        source.put(CommonOptions.KAFKA_BOOTSTRAP.key(), kafka.bootstrapServers());
        source.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        DataStream<SendRecord> realtimeSends =
                env.fromSource(
                                KafkaIO.textInput(
                                        Configuration.fromMap(source),
                                        REALTIME_TOPIC,
                                        "bench-pacing-realtime"),
                                WatermarkStrategy.noWatermarks(),
                                "Realtime pushes (Kafka)")
                        .uid("bench-realtime")
                        .map(line -> Json.read(line, SendRecord.class))
                        .returns(TypeInformation.of(SendRecord.class))
                        .uid("bench-realtime-parsed")
                        .name("Parse realtime pushes");
        Map<String, Double> rates = new HashMap<>();
        for (int v = 0; v < VENDORS.length; v++) {
            rates.put(VENDORS[v], RATES[v]);
        }
        PacingSettings pacing = PacingSettings.of(rates);
        List<PacingControl> configs = new ArrayList<>();
        PacingConfig c = new PacingConfig(rates, Map.of(), PacingConfig.DEFAULT_REALTIME_LEVEL);
        for (String v : VENDORS) {
            PacingControl control = new PacingControl();
            control.vendor = v;
            control.kind = PacingControl.CONFIG;
            control.maxRate = c.rate(v);
            control.weights = c.weights();
            control.realtimeLevel = c.realtimeLevel();
            control.fromRules = true;
            configs.add(control);
        }
        DataStream<PacingControl> controls =
                env.fromData(configs, TypeInformation.of(PacingControl.class)).setParallelism(1);
        Map<String, String> opts = new HashMap<>();
        opts.put(CommonOptions.KAFKA_BOOTSTRAP.key(), kafka.bootstrapServers());
        DispatchJob.pace(bulkSends.union(realtimeSends), controls, pacing, 128)
                .sinkTo(
                        KafkaIO.jsonSink(
                                Configuration.fromMap(opts),
                                "bench-pacing",
                                "sends",
                                Topics.VENDOR_TOPICS,
                                s -> Topics.vendorTopic(s.vendor),
                                s -> s.deviceId))
                .uid("bench-vendor-topics")
                .name("Vendor topics");

        LOADED.set(0);
        LOADED_AT.set(0);
        Series series = new Series(VENDORS.length);
        JobClient job = env.executeAsync("pushline-bench-pacing");
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka.bootstrapServers());
                RealtimeProducer producer =
                        RealtimeProducer.start(kafka.bootstrapServers(), realtime)) {
            long start = System.currentTimeMillis();
            long lastReport = start;
            while (System.currentTimeMillis() - start < seconds * 1000L) {
                var polled = consumer.poll(Duration.ofMillis(500));
                long seen = System.currentTimeMillis(); // visible to a read_committed reader
                for (ConsumerRecord<byte[], byte[]> r : polled) {
                    series.add(r, seen);
                }
                if (System.currentTimeMillis() - lastReport >= 10_000) {
                    lastReport = System.currentTimeMillis();
                    System.out.printf(
                            "  %3d s: %,d sends in the vendor topics%n",
                            (lastReport - start) / 1000, series.total);
                }
            }
            producer.close();
            job.cancel().get();
            // what was committed before the cancel
            for (int empty = 0; empty < 3; ) {
                var records = consumer.poll(Duration.ofMillis(500));
                empty = records.isEmpty() ? empty + 1 : 0;
                long seen = System.currentTimeMillis();
                records.forEach(r -> series.add(r, seen));
            }
        }
        return series.report(out, LOADED_AT.get(), round);
    }

    /** When the last bulk record left the generator (one JVM: the bench reads it directly). */
    static final AtomicLong LOADED_AT = new AtomicLong();

    static final AtomicLong LOADED = new AtomicLong();

    /** Counts the bulk records; the steady window starts once the whole backlog is in. */
    static final class LoadMarker implements MapFunction<SendRecord, SendRecord> {
        private final long total;

        LoadMarker(long total) {
            this.total = total;
        }

        @Override
        public SendRecord map(SendRecord s) {
            if (LOADED.incrementAndGet() == total) {
                LOADED_AT.set(System.currentTimeMillis());
            }
            return s;
        }
    }

    static SendRecord bulk(long i, long bulk, long level0, long level1) {
        SendRecord s = new SendRecord();
        // levels drawn at random in proportion to their sizes: every backlog builds from the start
        long r = Math.floorMod(mix(i), bulk);
        s.level = r < level0 ? 0 : r < level0 + level1 ? 1 : 2;
        s.msgId = s.level == 1 ? "campaign" : "bulk-" + s.level;
        s.msgType = s.level == 1 ? "album_update" : "promo";
        s.vendor = vendorOf(i * 7919);
        s.deviceId = "d" + i;
        s.uid = "u" + i;
        s.token = "t";
        s.title = "T";
        s.body = "B";
        s.ts = System.currentTimeMillis();
        return s;
    }

    static final String REALTIME_TOPIC = "bench.pacing.realtime";

    /** A realtime push as an app backend's request becomes one: level 3, stamped when produced. */
    static SendRecord realtime(long i) {
        SendRecord s = new SendRecord();
        s.level = REALTIME_LEVEL;
        s.msgId = "live-" + i;
        s.msgType = "live_start";
        s.vendor = vendorOf(mix(i + 17));
        s.deviceId = "r" + i;
        s.uid = "ur" + i;
        s.token = "t";
        s.title = "Live";
        s.body = "B";
        s.ts = System.currentTimeMillis(); // produced: latency is measured from here
        return s;
    }

    /**
     * Produces realtime pushes to {@link #REALTIME_TOPIC} at {@code perSecond} on average with
     * random (exponential) gaps, each sent at once (no linger), until closed.
     */
    static final class RealtimeProducer implements AutoCloseable {
        private final Thread thread;
        private volatile boolean running = true;

        private RealtimeProducer(String bootstrap, int perSecond) {
            thread =
                    new Thread(
                            () -> {
                                Properties p = new Properties();
                                p.put("bootstrap.servers", bootstrap);
                                p.put("key.serializer", StringSerializer.class.getName());
                                p.put("value.serializer", StringSerializer.class.getName());
                                p.put("linger.ms", "0");
                                java.util.Random gaps = new java.util.Random(20261127);
                                try (KafkaProducer<String, String> producer =
                                        new KafkaProducer<>(p)) {
                                    for (long i = 0; running; i++) {
                                        double gapMs =
                                                -Math.log(1 - gaps.nextDouble())
                                                        * 1000.0
                                                        / perSecond;
                                        java.util.concurrent.locks.LockSupport.parkNanos(
                                                (long) (gapMs * 1e6));
                                        SendRecord s = realtime(i);
                                        producer.send(
                                                new ProducerRecord<>(
                                                        REALTIME_TOPIC, s.deviceId, Json.write(s)));
                                    }
                                }
                            },
                            "bench-pacing-realtime");
            thread.setDaemon(true);
        }

        static RealtimeProducer start(String bootstrap, int perSecond) {
            RealtimeProducer r = new RealtimeProducer(bootstrap, perSecond);
            r.thread.start();
            return r;
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
        }
    }

    /** A vendor in proportion to the rates (6:3:1). */
    static String vendorOf(long h) {
        long r = Math.floorMod(h, 10L);
        return r < 6 ? VENDORS[0] : r < 9 ? VENDORS[1] : VENDORS[2];
    }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Properties p = KafkaIO.committedReader(bootstrap);
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p);
        List<org.apache.kafka.common.TopicPartition> parts = new ArrayList<>();
        for (String v : VENDORS) {
            parts.add(new org.apache.kafka.common.TopicPartition(Topics.vendorTopic(v), 0));
        }
        c.assign(parts);
        c.seekToBeginning(parts);
        return c;
    }

    /** What the vendor topics received, per vendor, level and second of broker append time. */
    static final class Series {
        final int vendors;
        final Map<Long, long[][]> bySecond = new HashMap<>();
        final List<Long> realtimeLatency = new ArrayList<>();
        final List<Long> realtimeAt = new ArrayList<>();
        long first = Long.MAX_VALUE;
        long total;

        Series(int vendors) {
            this.vendors = vendors;
        }

        /**
         * @param seenAt when a read_committed reader (a gateway) first saw {@code r}: the realtime
         *     latency is measured to here, not to the append time, which is inside the open
         *     transaction and not yet visible to a gateway
         */
        void add(ConsumerRecord<byte[], byte[]> r, long seenAt) {
            SendRecord s =
                    Json.read(
                            new String(r.value(), java.nio.charset.StandardCharsets.UTF_8),
                            SendRecord.class);
            int v = Arrays.asList(VENDORS).indexOf(s.vendor);
            long second = r.timestamp() / 1000;
            first = Math.min(first, r.timestamp());
            bySecond.computeIfAbsent(second, k -> new long[vendors][REALTIME_LEVEL + 1])[v][
                    s.level]++;
            if (s.level == REALTIME_LEVEL) {
                realtimeLatency.add(seenAt - s.ts);
                realtimeAt.add(r.timestamp());
            }
            total++;
        }

        PacingReport.Result report(Path out, long loadedAt, int round) throws Exception {
            return PacingReport.write(this, out, loadedAt, round);
        }
    }
}
