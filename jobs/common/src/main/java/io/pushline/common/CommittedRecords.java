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
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(KafkaIO.committedReader(bootstrap))) {
            List<TopicPartition> parts = partitions(c, topic);
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                c.poll(Duration.ofMillis(200)).forEach(each);
            }
        }
    }
}
