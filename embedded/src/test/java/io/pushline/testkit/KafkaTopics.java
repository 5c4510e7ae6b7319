package io.pushline.testkit;

import io.pushline.common.CommittedRecords;
import io.pushline.common.KafkaIO;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/** Plain Kafka clients for ITCases: write keyed lines, read a topic as committed so far. */
public final class KafkaTopics {
    private KafkaTopics() {}

    public static void produce(String bootstrap, String topic, List<String[]> keyedValues)
            throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // idempotent (the default): records of a partition land in the order sent
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            List<java.util.concurrent.Future<?>> sent = new java.util.ArrayList<>();
            for (String[] kv : keyedValues) {
                sent.add(producer.send(new ProducerRecord<>(topic, kv[0], kv[1])));
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        }
    }

    /**
     * Writes {@code transactions} committed transactions of {@code each} records to partition 0 of
     * {@code topic}: each leaves a commit marker behind its last record, at the offset after it.
     */
    public static void produceInTransactions(
            String bootstrap, String topic, int transactions, int each) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            for (int t = 0; t < transactions; t++) {
                producer.beginTransaction();
                for (int i = 0; i < each; i++) {
                    producer.send(new ProducerRecord<>(topic, 0, "k", "v" + i));
                }
                producer.commitTransaction();
            }
        }
    }

    /** Blocks up to {@code wait} for a committed record past the current end of {@code topic}. */
    public static void waitForMore(String bootstrap, String topic, Duration wait) {
        Properties p = KafkaIO.toEndReader(bootstrap);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = CommittedRecords.partitions(c, topic);
            c.assign(parts);
            c.seekToEnd(parts);
            parts.forEach(c::position);
            c.poll(wait);
        }
    }

    /**
     * Every committed record of a topic whose writers have ended: first waits (up to 30 s) for
     * their commits to be completed on every partition. Not for a topic a running job writes to.
     */
    public static List<String> readAllAfterJobs(String bootstrap, String topic) {
        try {
            CommittedRecords.awaitSettled(bootstrap, topic, Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return readAll(bootstrap, topic);
    }

    /** Every committed value of {@code topic}, as text, in partition then offset order. */
    public static List<String> readAll(String bootstrap, String topic) {
        List<String> out = new ArrayList<>();
        CommittedRecords.readAll(
                bootstrap, topic, r -> out.add(new String(r.value(), StandardCharsets.UTF_8)));
        return out;
    }

    /** The committed dead letters of {@code push.dlq}. */
    public static List<DeadLetter> deadLetters(String bootstrap) {
        List<DeadLetter> out = new ArrayList<>();
        for (String line : readAll(bootstrap, Topics.DLQ)) {
            out.add(Json.read(line, DeadLetter.class));
        }
        return out;
    }

    public static String[] kv(String key, String value) {
        return new String[] {key, value};
    }
}
