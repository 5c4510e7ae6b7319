package io.pushline.common;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** Reading what jobs committed to a topic, for the CLI and tests: from the start to the end. */
public final class CommittedRecords {
    private CommittedRecords() {}

    /** Every partition of {@code topic}. */
    public static List<TopicPartition> partitions(KafkaConsumer<?, ?> c, String topic) {
        return c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(i -> new TopicPartition(topic, i.partition()))
                .collect(Collectors.toList());
    }

    /** Hands every committed record of {@code topic}, up to its current end, to {@code each}. */
    public static void readAll(
            String bootstrap, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        readAll(bootstrap, new java.util.Properties(), topic, each);
    }

    /**
     * As above, with the client properties of {@code security} on top (the job's {@code
     * kafka.properties.*}: TLS, SASL).
     */
    public static void readAll(
            String bootstrap,
            java.util.Properties security,
            String topic,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        java.util.Properties p = KafkaIO.toEndReader(bootstrap);
        p.putAll(security);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = partitions(c, topic);
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                c.poll(Duration.ofMillis(200)).forEach(each);
            }
        }
    }

    /**
     * Waits, up to {@code maxWait}, until no transaction on {@code topic} is open: until what a
     * read_committed reader can reach (the last stable offset) is the end of each partition. A
     * producer's commit returns before the broker has written the commit markers to every
     * partition, so a job that has just ended can have committed records a reader cannot see yet.
     *
     * @return whether the topic settled in time (false: a transaction is still open, such as a
     *     running job's)
     */
    public static boolean awaitSettled(String bootstrap, String topic, Duration maxWait)
            throws InterruptedException {
        java.util.Properties all = KafkaIO.committedReader(bootstrap);
        all.put("isolation.level", "read_uncommitted");
        try (KafkaConsumer<byte[], byte[]> committed =
                        new KafkaConsumer<>(KafkaIO.committedReader(bootstrap));
                KafkaConsumer<byte[], byte[]> uncommitted = new KafkaConsumer<>(all)) {
            List<TopicPartition> parts = partitions(committed, topic);
            long deadline = System.nanoTime() + maxWait.toNanos();
            while (!committed.endOffsets(parts).equals(uncommitted.endOffsets(parts))) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(100);
            }
            return true;
        }
    }
}
