package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.common.KafkaIO;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/** The demo's Kafka: its input written to the topics, the jobs' committed output read back. */
final class DemoTopics {
    private DemoTopics() {}

    static void produce(String bootstrap, String topic, List<String[]> records) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        Exception[] failed = {null};
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String[] kv : records) {
                producer.send(
                        new ProducerRecord<>(topic, kv[0], kv[1]),
                        (meta, e) -> {
                            if (e != null) {
                                failed[0] = e;
                            }
                        });
            }
            producer.flush();
        }
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    private static Properties consumerProps(String bootstrap) {
        Properties p = KafkaIO.committedReader(bootstrap);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        return p;
    }

    /** Committed records so far: the consumer's end offsets under read_committed, summed. */
    static long committedCount(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps(bootstrap))) {
            List<TopicPartition> parts = CommittedRecords.partitions(c, topic);
            // Offsets include transaction markers: an estimate good enough for progress.
            return c.endOffsets(parts).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Every committed value of {@code topic}, once its writers' transactions have settled. */
    static List<String> readAllAfterJobs(String bootstrap, String topic) throws Exception {
        CommittedRecords.awaitSettled(bootstrap, topic, java.time.Duration.ofSeconds(30));
        List<String> out = new java.util.ArrayList<>();
        CommittedRecords.readAll(
                bootstrap, topic, r -> out.add(new String(r.value(), StandardCharsets.UTF_8)));
        return out;
    }
}
