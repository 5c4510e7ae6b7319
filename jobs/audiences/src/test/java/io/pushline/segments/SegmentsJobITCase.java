package io.pushline.segments;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.StoreAudiences;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.segments.BuiltSegment;
import io.pushline.testkit.Clusters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segment build on the real embedded HBase, Kafka and Flink (BATCH, parallelism 2): package
 * files replace segments, changes apply on top in order, bad rows are counted and dead-lettered,
 * and a second build reads only the changes that came since.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SegmentsJobITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final long T = 1_767_225_600_000L;

    @TempDir Path files;

    @Test
    void filesAndChangesBecomeSegmentsAndASecondBuildReadsOnlyNewChanges() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(List.of(Topics.SEGMENT_CHANGES, Topics.DLQ), 2);

        List<String> sports = uids(0, 100);
        sports.add(2, "   ");
        sports.add(7, "bad uid");
        sports.add("  u000  "); // surrounding whitespace, and a repeat
        Files.write(files.resolve("sports.txt"), sports, StandardCharsets.UTF_8);
        Files.write(files.resolve("fans:host42.txt"), List.of("u001", "u002"));
        Files.createDirectories(files.resolve("region"));
        Files.write(files.resolve("region/beijing.txt"), uids(50, 80), StandardCharsets.UTF_8);

        produce(
                kafka,
                change("sports", "u200", "add", T + 1),
                change("sports", "u005", "remove", T + 2),
                change("churned", "u001", "add", T + 1),
                change("churned", "u002", "add", T + 2),
                change("churned", "u001", "remove", T + 3),
                "{\"segment\":\"churned\",",
                "{\"segment\":\"churned\",\"uid\":\"u009\",\"op\":\"toggle\",\"ts\":1}");

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itsegments");
        opts.put(SegmentsOptions.FILES.key(), files.toString());
        SegmentsJob.Report first = build(stack, opts);

        assertThat(first.segments())
                .extracting(BuiltSegment::toString)
                .containsExactly(
                        "churned v1: 1 members (2 adds, 1 removes)",
                        "fans:host42 v1: 2 members (file: 2 rows, 0 adds, 0 removes)",
                        "region/beijing v1: 30 members (file: 30 rows, 0 adds, 0 removes)",
                        "sports v1: 100 members (file: 101 rows, 1 adds, 1 removes)");
        assertThat(first.rows()).isEqualTo(102 + 2 + 30 + 7);
        assertThat(first.rejected())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "malformed uid (whitespace, control characters or over 256"
                                        + " characters)",
                                1L,
                                "not a segment change",
                                1L,
                                "field 'op' must be add or remove",
                                1L));
        List<DeadLetter> dead = new ArrayList<>();
        CommittedRecords.readAll(
                kafka,
                Topics.DLQ,
                r ->
                        dead.add(
                                Json.read(
                                        new String(r.value(), StandardCharsets.UTF_8),
                                        DeadLetter.class)));
        // The two bad records are churned's 4th and 5th; sports' two precede them if they share
        // a partition.
        int p = partitionOf("churned");
        int before = partitionOf("sports") == p ? 2 : 0;
        assertThat(dead)
                .extracting(d -> d.source + " " + d.position)
                .containsExactlyInAnyOrder(
                        files.resolve("sports.txt") + " line 8",
                        Topics.SEGMENT_CHANGES + " " + p + "@" + (before + 3),
                        Topics.SEGMENT_CHANGES + " " + p + "@" + (before + 4));

        TreeSet<String> expected = new TreeSet<>(uids(0, 100));
        expected.remove("u005");
        expected.add("u200");
        expected.remove("u002");
        assertThat(evaluate(stack, "sports AND NOT churned")).isEqualTo(expected);
        assertThat(evaluate(stack, "region/beijing")).isEqualTo(new TreeSet<>(uids(50, 80)));

        produce(
                kafka,
                change("churned", "u002", "remove", T + 5),
                change("churned", "u003", "add", T + 6));
        opts.remove(SegmentsOptions.FILES.key());
        SegmentsJob.Report second = build(stack, opts);
        assertThat(second.segments())
                .extracting(BuiltSegment::toString)
                .containsExactly("churned v2: 1 members (1 adds, 1 removes)");
        assertThat(evaluate(stack, "churned")).containsExactly("u003");
        assertThat(evaluate(stack, "sports AND NOT churned")).hasSize(99).doesNotContain("u003");
    }

    private static TreeSet<String> evaluate(LocalStack stack, String expression) throws Exception {
        try (StoreAudiences a =
                new StoreAudiences(stack.hbase().newConnection(), "itsegments", 1000)) {
            IdSet set = a.evaluate(expression);
            int[] ids = set.chunk(0, (int) set.cardinality());
            return new TreeSet<>(List.of(a.uids(ids)));
        }
    }

    /** The partition Kafka's default partitioner picks for a key, on two partitions. */
    private static int partitionOf(String key) {
        return org.apache.kafka.common.utils.Utils.toPositive(
                        org.apache.kafka.common.utils.Utils.murmur2(
                                key.getBytes(StandardCharsets.UTF_8)))
                % 2;
    }

    private static SegmentsJob.Report build(LocalStack stack, Map<String, String> opts)
            throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        return SegmentsJob.run(env, Configuration.fromMap(opts));
    }

    static List<String> uids(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> String.format("u%03d", i))
                .collect(Collectors.toCollection(ArrayList::new));
    }

    static String change(String segment, String uid, String op, long ts) {
        return String.format(
                "{\"segment\":\"%s\",\"uid\":\"%s\",\"op\":\"%s\",\"ts\":%d}",
                segment, uid, op, ts);
    }

    static void produce(String kafka, String... values) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String v : values) {
                String segment = v.contains("churned") ? "churned" : "sports";
                producer.send(new ProducerRecord<>(Topics.SEGMENT_CHANGES, segment, v)).get();
            }
        }
    }
}
