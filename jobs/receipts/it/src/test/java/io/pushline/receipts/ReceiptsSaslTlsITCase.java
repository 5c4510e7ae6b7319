package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.ReceiptEvent;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.SecureKafka;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * The receipts job's Kafka source on a broker that takes clients only over TLS with SASL: it reads
 * with the {@code kafka.properties.*} the user gave, its password from a file (the source used to
 * leave them out, and read nothing on such a broker).
 */
class ReceiptsSaslTlsITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    @TempDir Path dir;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void theSourceReadsReceiptsOverTlsWithItsPasswordFromAFile() throws Exception {
        try (SecureKafka kafka = SecureKafka.start(dir.resolve("kafka"), "rec3ipts")) {
            kafka.broker().createTopics(List.of(Topics.DECISIONS, Topics.RECEIPTS), 2);
            long t = System.currentTimeMillis();
            try (KafkaProducer<String, String> p =
                    new KafkaProducer<>(
                            kafka.props(kafka.client("rec3ipts")),
                            new StringSerializer(),
                            new StringSerializer())) {
                p.send(
                                new ProducerRecord<>(
                                        Topics.RECEIPTS,
                                        "d1",
                                        "{\"type\":\"delivered\",\"msgId\":\"m1\",\"deviceId\":\"d1\","
                                                + "\"vendor\":\"fcm\",\"ts\":"
                                                + t
                                                + "}"))
                        .get(30, TimeUnit.SECONDS);
            }
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "--" + CommonOptions.KAFKA_BOOTSTRAP.key(),
                                    kafka.bootstrap(),
                                    "--" + CommonOptions.KAFKA_BOUNDED.key(),
                                    "true",
                                    "--" + CommonOptions.KAFKA_STARTING_OFFSETS.key(),
                                    "earliest"));
            args.addAll(kafka.jobArguments());
            Configuration options =
                    OptionsParser.parse(args.toArray(new String[0]), ReceiptsOptions.accepted());

            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(2);
            List<ReceiptEvent> read =
                    env.fromSource(
                                    ReceiptsJob.kafkaInput(options),
                                    ReceiptsJob.watermarks(options),
                                    "receipts over SASL_SSL")
                            .executeAndCollect(10);
            assertThat(read)
                    .singleElement()
                    .satisfies(
                            e -> {
                                assertThat(e.kind).isEqualTo(ReceiptEvent.DELIVERED);
                                assertThat(e.msgId).isEqualTo("m1");
                                assertThat(e.deviceId).isEqualTo("d1");
                            });
        }
    }
}
