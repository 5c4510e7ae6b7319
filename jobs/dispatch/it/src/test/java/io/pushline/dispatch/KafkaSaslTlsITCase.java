package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.CommonOptions;
import io.pushline.local.EmbeddedKafka;
import io.pushline.local.LocalFlink;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
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
 * credentials and the trust store go in as {@code kafka.properties.*} options and reach every
 * source and sink (a bind and a push in, the decision and the send out), and a client with a wrong
 * password is refused.
 */
class KafkaSaslTlsITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    @TempDir Path dir;

    private static final String PASSWORD = "changeit";

    @Test
    void theJobReadsAndWritesOverTlsWithScramCredentials() throws Exception {
        Path keystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("trust.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD);
        Path cert = dir.resolve("broker.crt");
        keytool(
                "-exportcert",
                "-alias",
                "broker",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD,
                "-storetype",
                "PKCS12",
                "-file",
                cert.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "broker",
                "-file",
                cert.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                truststore.toString(),
                "-storepass",
                PASSWORD);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> broker = new HashMap<>();
        broker.put(
                "listeners",
                "EXTERNAL://localhost:0,CONTROLLER://localhost:0,SECURE://localhost:" + port);
        broker.put(
                "listener.security.protocol.map",
                "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,SECURE:SASL_SSL");
        broker.put("listener.name.secure.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        broker.put(
                "listener.name.secure.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        broker.put("listener.name.secure.ssl.keystore.location", keystore.toString());
        broker.put("listener.name.secure.ssl.keystore.password", PASSWORD);
        broker.put("listener.name.secure.ssl.key.password", PASSWORD);
        broker.put("listener.name.secure.ssl.keystore.type", "PKCS12");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), broker)) {
            kafka.createTopics(Topics.dispatchTopics(), 2);
            try (Admin admin = kafka.admin()) {
                admin.alterUserScramCredentials(
                                List.of(
                                        new UserScramCredentialUpsertion(
                                                "pushline",
                                                new ScramCredentialInfo(
                                                        ScramMechanism.SCRAM_SHA_512, 4096),
                                                "s3cret")))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            String secure = "localhost:" + port;
            Map<String, String> client = client(truststore, "s3cret");

            assertThatThrownBy(() -> describe(secure, client(truststore, "wrong")))
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

            Map<String, String> opts = new HashMap<>();
            opts.put(CommonOptions.KAFKA_BOOTSTRAP.key(), secure);
            opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
            opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
            opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
            opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-sasl");
            client.forEach((k, v) -> opts.put(CommonOptions.KAFKA_PROPERTIES_PREFIX + k, v));
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(
                            LocalFlink.configuration(dir.resolve("flink")));
            env.setParallelism(2);
            JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
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

    private static Map<String, String> client(Path truststore, String password) {
        Map<String, String> p = new HashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"pushline\" password=\""
                        + password
                        + "\";");
        p.put("ssl.truststore.location", truststore.toString());
        p.put("ssl.truststore.password", PASSWORD);
        p.put("ssl.truststore.type", "PKCS12");
        return p;
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

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
        }
    }
}
