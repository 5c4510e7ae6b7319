package io.pushline.dispatch;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.segments.SegmentsJob;
import io.pushline.segments.SegmentsOptions;
import io.pushline.testkit.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A population for campaign tests: {@code n} uids, most with one device, every 7th with two, every
 * 10th with none; segments {@code sports} (the first two thirds), {@code region:beijing} (even
 * numbers) and {@code churned} (multiples of 3), written to the real HBase through the dictionary
 * and the segment store.
 */
final class Campaigns {
    static final long T = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    static final String EXPRESSION = "sports AND region:beijing AND NOT churned";
    static final String[] VENDORS = {
        "fcm", "apns", "huawei", "honor", "xiaomi", "oppo", "vivo", "longconn"
    };

    final int n;
    final String namespace;

    Campaigns(int n, String namespace) {
        this.n = n;
        this.namespace = namespace;
    }

    static String uid(int i) {
        return String.format("u%05d", i);
    }

    static List<String> devices(int i) {
        if (i % 10 == 0) {
            return List.of();
        }
        String d = String.format("d%05d", i);
        return i % 7 == 0 ? List.of(d + "a", d + "b") : List.of(d);
    }

    static String vendor(String device) {
        return VENDORS[Math.abs(device.hashCode()) % VENDORS.length];
    }

    boolean selected(int i) {
        return i < 2 * n / 3 && i % 2 == 0 && i % 3 != 0;
    }

    /**
     * Writes the segments as user-package files and builds them into the store with the segment
     * job, as production does.
     */
    void buildSegments(LocalStack stack, Path files) throws Exception {
        write(files, "sports", i -> i < 2 * n / 3);
        write(files, "region:beijing", i -> i % 2 == 0);
        write(files, "churned", i -> i % 3 == 0);
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), namespace);
        opts.put(SegmentsOptions.FILES.key(), files.toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        SegmentsJob.Report r = SegmentsJob.run(env, Configuration.fromMap(opts));
        if (r.segments().size() != 3 || r.rejectedRows() != 0) {
            throw new IllegalStateException("segment build: " + r.segments() + " " + r.rejected());
        }
    }

    private void write(Path files, String name, IntPredicate in) throws Exception {
        // Shuffled, as real package files come: ids are not in uid order.
        List<String> uids =
                IntStream.range(0, n)
                        .map(i -> (int) ((i * 7919L) % n))
                        .filter(in)
                        .mapToObj(Campaigns::uid)
                        .collect(Collectors.toList());
        Files.write(files.resolve(name + ".txt"), uids, StandardCharsets.UTF_8);
    }

    /**
     * Runs the dispatch job (parallelism 2) over what the input topics hold now, to their end,
     * against this population's namespace; {@code extra} options on top. Stamped at fixed dates
     * long past: no wall-clock horizon behind.
     */
    void runToTheEnd(LocalStack stack, String transactionalIdPrefix, Map<String, String> extra)
            throws Exception {
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), namespace);
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), transactionalIdPrefix);
        opts.putAll(extra);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        DispatchJob.start(env, Configuration.fromMap(opts))
                .getJobExecutionResult()
                .get(4, java.util.concurrent.TimeUnit.MINUTES);
    }

    /**
     * The decisions of campaign {@code msgId} are exactly the replay's: one PASS per selected
     * device, one no_device per selected uid without one, nothing else.
     */
    void assertDecidedAsTheReplay(String kafka, String msgId) {
        List<Decision> decisions =
                decisions(kafka).stream()
                        .filter(d -> d.msgId.equals(msgId))
                        .collect(Collectors.toList());
        List<String> passes =
                decisions.stream()
                        .filter(Decision::isPass)
                        .map(d -> d.msgId + "/" + d.deviceId + "/" + d.vendor)
                        .collect(Collectors.toList());
        org.assertj.core.api.Assertions.assertThat(passes).hasSameSizeAs(expectedSends(msgId));
        org.assertj.core.api.Assertions.assertThat(new TreeSet<>(passes))
                .isEqualTo(expectedSends(msgId));
        List<String> drops =
                decisions.stream()
                        .filter(d -> !d.isPass())
                        .map(d -> d.msgId + "/" + d.uid + "/" + d.reason)
                        .collect(Collectors.toList());
        org.assertj.core.api.Assertions.assertThat(drops)
                .containsExactlyInAnyOrderElementsOf(
                        expectedNoDevice(msgId).stream()
                                .map(x -> x + "/no_device")
                                .collect(Collectors.toList()));
    }

    /** Binds of every device at T, keyed by device. */
    List<String[]> binds() {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (String d : devices(i)) {
                out.add(
                        DispatchKafkaITCase.kv(
                                d,
                                DispatchKafkaITCase.bind(
                                        T, d, uid(i), vendor(d), "tok-" + d, null, null)));
            }
        }
        return out;
    }

    /**
     * A record at {@code ts} on both partitions of both input topics, so the watermark passes what
     * came before without wall-clock idle advance: a switch of an unbound device (ignored) and a
     * request to a uid without devices (one no_device decision, msgId {@code tick}).
     */
    static void tick(String kafka, long ts) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        try (var producer = new KafkaProducer<String, String>(p)) {
            for (int partition = 0; partition < 2; partition++) {
                producer.send(
                        new ProducerRecord<>(
                                Topics.DEVICE_EVENTS,
                                partition,
                                "tick",
                                "{\"ts\":"
                                        + ts
                                        + ",\"type\":\"switch\",\"deviceId\":\"tick\",\"enabled\":true}"));
                producer.send(
                        new ProducerRecord<>(
                                Topics.PUSH_REQUESTS,
                                partition,
                                "tick",
                                DispatchKafkaITCase.push(ts, "tick", "{\"uids\":[\"nobody\"]}")));
            }
            producer.flush();
        }
    }

    static String[] campaign(String msgId, long ts, String expression) {
        return DispatchKafkaITCase.kv(
                msgId,
                DispatchKafkaITCase.push(ts, msgId, "{\"audience\":\"" + expression + "\"}"));
    }

    static String[] saved(String msgId, long ts, String name) {
        return DispatchKafkaITCase.kv(
                msgId, DispatchKafkaITCase.push(ts, msgId, "{\"savedAudience\":\"" + name + "\"}"));
    }

    /** "msgId/deviceId/vendor" of every send the campaign should make. */
    TreeSet<String> expectedSends(String msgId) {
        TreeSet<String> out = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            if (selected(i)) {
                for (String d : devices(i)) {
                    out.add(msgId + "/" + d + "/" + vendor(d));
                }
            }
        }
        return out;
    }

    /** Selected uids without a device: one no_device drop each. */
    TreeSet<String> expectedNoDevice(String msgId) {
        return IntStream.range(0, n)
                .filter(i -> selected(i) && devices(i).isEmpty())
                .mapToObj(i -> msgId + "/" + uid(i))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every send in every vendor topic, as "msgId/deviceId/vendor", duplicates kept. */
    static List<String> sends(String kafka) {
        List<String> out = new ArrayList<>();
        for (String v : VENDORS) {
            for (String line : KafkaTopics.readAll(kafka, Topics.vendorTopic(v))) {
                SendRecord s = Json.read(line, SendRecord.class);
                out.add(s.msgId + "/" + s.deviceId + "/" + s.vendor);
            }
        }
        return out;
    }

    static List<Decision> decisions(String kafka) {
        return KafkaTopics.readAll(kafka, Topics.DECISIONS).stream()
                .map(l -> Json.read(l, Decision.class))
                .collect(Collectors.toList());
    }
}
