package io.pushline.sendtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.local.gen.NightlyData;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Topics;
import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.sendtime.predict.SendTimeRules;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.HBaseRows;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production entry point on the real embedded HBase, Kafka and Flink (BATCH, parallelism 2): a
 * folder of generated activity files (plus bad lines), or the same activity on a Kafka topic, in;
 * exactly the model's predictions in {@code user_sendtime}, the bad lines in push.dlq with their
 * position (file and line, or topic, partition and offset).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SendTimeHBaseITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final LocalDate D = LocalDate.of(2026, 11, 22);

    @TempDir Path dir;

    @Test
    void activityFilesBecomeUserSendTimeRowsAndBadLinesDeadLetters() throws Exception {
        LocalStack stack = STACK.get();
        stack.kafka().recreateTopics(List.of(Topics.DLQ), 2);
        new NightlyData(9, D, 9).write(dir.resolve("gen"), 500);
        List<String> lines = Files.readAllLines(dir.resolve("gen/activity.jsonl"));
        Path activity = Files.createDirectories(dir.resolve("activity"));
        Files.write(activity.resolve("part-0.jsonl"), lines.subList(0, lines.size() / 2));
        List<String> second = new ArrayList<>(lines.subList(lines.size() / 2, lines.size()));
        second.add(3, "{\"uid\":\"u1\"}");
        second.add("not json");
        Files.write(activity.resolve("part-1.jsonl"), second);

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itsendtime");
        opts.put(SendTimeOptions.ACTIVITY.key(), activity.toString());
        opts.put(SendTimeOptions.DATE.key(), D.toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        SendTimeJob.run(env, Configuration.fromMap(opts));

        List<ActivityEvent> events = new ArrayList<>();
        lines.forEach(l -> events.add(ActivityParser.parse(l)));
        Set<SendTime> expected = SendTimeJobITCase.model(events, SendTimeRules.defaults(), D);
        assertThat(expected).hasSizeGreaterThan(400);
        assertThat(rows(stack, "itsendtime")).isEqualTo(expected);

        List<DeadLetter> dead = KafkaTopics.deadLetters(stack.kafkaBootstrap());
        String file = activity.resolve("part-1.jsonl").toString();
        assertThat(dead).hasSize(2);
        dead.sort(java.util.Comparator.comparing(d -> d.position.length()));
        assertThat(dead.get(0).position).endsWith(file + ":4");
        assertThat(dead.get(0).reason).isEqualTo("missing field 'ts'");
        assertThat(dead.get(1).position).endsWith(file + ":" + second.size());
        assertThat(dead.get(1).reason).startsWith("not valid JSON");
        assertThat(dead).allMatch(d -> d.position.contains(file) && d.source.equals("activity"));
    }

    @Test
    void activityFromKafkaGivesTheSameRows() throws Exception {
        LocalStack stack = STACK.get();
        String topic = "user.activity";
        stack.kafka().recreateTopics(List.of(Topics.DLQ, topic), 2);
        new NightlyData(10, D, 9).write(dir.resolve("gen"), 300);
        List<String> lines = Files.readAllLines(dir.resolve("gen/activity.jsonl"));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String line : lines) {
                producer.send(new ProducerRecord<>(topic, ActivityParser.parse(line).uid, line));
            }
            producer.send(new ProducerRecord<>(topic, "x", "{\"uid\":\"u1\",\"ts\":\"soon\"}"));
            producer.flush();
        }

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itsendtimekafka");
        opts.put(SendTimeOptions.ACTIVITY_TOPIC.key(), topic);
        opts.put(SendTimeOptions.DATE.key(), D.toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        SendTimeJob.run(env, Configuration.fromMap(opts));

        List<ActivityEvent> events = new ArrayList<>();
        lines.forEach(l -> events.add(ActivityParser.parse(l)));
        Set<SendTime> expected = SendTimeJobITCase.model(events, SendTimeRules.defaults(), D);
        assertThat(expected).hasSizeGreaterThan(250);
        assertThat(rows(stack, "itsendtimekafka")).isEqualTo(expected);
        List<DeadLetter> dead = KafkaTopics.deadLetters(stack.kafkaBootstrap());
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).source).isEqualTo("activity");
        assertThat(dead.get(0).position).startsWith(topic + "-");
    }

    /** The user_sendtime rows of the namespace, each for the test's date by the rules predictor. */
    private static Set<SendTime> rows(LocalStack stack, String namespace) throws Exception {
        Set<SendTime> rows = new HashSet<>();
        try (Connection c = stack.hbase().newConnection();
                Table t = c.getTable(HBaseTables.userSendTime(namespace));
                ResultScanner scan = t.getScanner(new Scan())) {
            for (Result r : scan) {
                assertThat(HBaseRows.cell(r, "date")).isEqualTo(D.toString());
                assertThat(HBaseRows.cell(r, "predictor")).isEqualTo("rules");
                rows.add(
                        SendTime.of(
                                Bytes.toString(r.getRow()),
                                HBaseRows.cell(r, "first"),
                                HBaseRows.cell(r, "last")));
            }
        }
        return rows;
    }
}
