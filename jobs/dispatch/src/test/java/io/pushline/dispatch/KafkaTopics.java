package io.pushline.dispatch;

import io.pushline.common.KafkaIO;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/** Plain Kafka clients for tests: write lines, read a whole topic as committed so far. */
final class KafkaTopics {
    private KafkaTopics() {}

    static void produce(String bootstrap, String topic, List<String[]> keyedValues)
            throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String[] kv : keyedValues) {
                producer.send(new ProducerRecord<>(topic, kv[0], kv[1])).get();
            }
        }
    }

    /** Blocks up to {@code wait} for a committed record past the current end of {@code topic}. */
    static void waitForMore(String bootstrap, String topic, Duration wait) {
        Properties p = KafkaIO.committedReader(bootstrap);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts =
                    c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                            .map(i -> new TopicPartition(topic, i.partition()))
                            .collect(Collectors.toList());
            c.assign(parts);
            c.seekToEnd(parts);
            parts.forEach(c::position);
            c.poll(wait);
        }
    }

    /** Every committed value of {@code topic}, as text, in partition then offset order. */
    static List<String> readAll(String bootstrap, String topic) {
        Properties p = KafkaIO.committedReader(bootstrap);
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts =
                    c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                            .map(i -> new TopicPartition(topic, i.partition()))
                            .collect(Collectors.toList());
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
