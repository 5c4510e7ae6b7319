package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.local.LocalFlink;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.SecureKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatch job against a broker that takes clients only over TLS with SASL/SCRAM-SHA-512: the
 * credentials and the trust store go in as {@code kafka.properties.*} options, their passwords as
 * {@code ${file:..}} references read when the options are parsed, and reach every source and sink
 * (a bind and a push in, the decision and the send out); a client with a wrong password is refused.
 */
class KafkaSaslTlsITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    @TempDir Path dir;

    @Test
    void theJobReadsAndWritesOverTlsWithItsPasswordFromAFile() throws Exception {
        try (SecureKafka kafka = SecureKafka.start(dir.resolve("kafka"), "s3cret")) {
            kafka.broker().createTopics(Topics.dispatchTopics(), 2);
            String secure = kafka.bootstrap();
            Map<String, String> client = kafka.client("s3cret");

            assertThatThrownBy(() -> describe(secure, kafka.client("wrong")))
                    .hasStackTraceContaining("Authentication failed");

            long t = System.currentTimeMillis();
            produce(
                    secure,
                    client,
                    Topics.DEVICE_EVENTS,
                    "{\"ts\":"
                            + t
                            + ",\"type\":\"bind\",\"deviceId\":\"d1\",\"uid\":\"u1\","
                            + "\"vendor\":\"fcm\",\"token\":\"tok1\"}");
            produce(
                    secure,
                    client,
                    Topics.PUSH_REQUESTS,
                    "{\"ts\":"
                            + (t + 1)
                            + ",\"type\":\"push\",\"msgId\":\"m1\",\"msgType\":\"news\","
                            + "\"title\":\"t\",\"body\":\"b\",\"target\":{\"uids\":[\"u1\"]}}");

            // as a user starts the job: passwords as ${file:...}, read by the options parser
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "--" + CommonOptions.KAFKA_BOOTSTRAP.key(), secure,
                                    "--" + CommonOptions.KAFKA_BOUNDED.key(), "true",
                                    "--" + CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest",
                                    "--" + DispatchOptions.IDLE_ADVANCE.key(), "0 s",
                                    "--" + DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(),
                                            "it-sasl"));
            args.addAll(kafka.jobArguments());
            assertThat(String.join(" ", args)).doesNotContain("s3cret");
            Configuration options =
                    OptionsParser.parse(args.toArray(new String[0]), DispatchOptions.accepted());
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(
                            LocalFlink.configuration(dir.resolve("flink")));
            env.setParallelism(2);
            JobClient job = DispatchJob.start(env, options);
            job.getJobExecutionResult().get(3, TimeUnit.MINUTES);

            List<String> decisions = readAll(secure, client, Topics.DECISIONS);
            assertThat(decisions).hasSize(1);
            Decision d = Json.read(decisions.get(0), Decision.class);
            assertThat(d.msgId).isEqualTo("m1");
            assertThat(d.deviceId).isEqualTo("d1");
            assertThat(d.isPass()).isTrue();
            assertThat(readAll(secure, client, "push.vendor.fcm"))
                    .singleElement()
                    .satisfies(s -> assertThat(s).contains("\"tok1\""));
        }
    }

    private static Properties props(String bootstrap, Map<String, String> client) {
        Properties p = new Properties();
        p.putAll(client);
        p.put("bootstrap.servers", bootstrap);
        return p;
    }

    private static void describe(String bootstrap, Map<String, String> client) throws Exception {
        Properties p = props(bootstrap, client);
        p.put("request.timeout.ms", "15000");
        p.put("default.api.timeout.ms", "20000");
        try (Admin a = Admin.create(p)) {
            a.describeCluster().nodes().get(30, TimeUnit.SECONDS);
        }
    }

    private static void produce(
            String bootstrap, Map<String, String> client, String topic, String value)
            throws Exception {
        Properties p = props(bootstrap, client);
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>(topic, value)).get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> readAll(
            String bootstrap, Map<String, String> client, String topic) {
        Properties p = props(bootstrap, client);
        p.put("isolation.level", "read_committed");
        p.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }
}
