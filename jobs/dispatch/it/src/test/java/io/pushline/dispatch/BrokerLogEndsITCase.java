package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.BrokerLogEnds;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.KafkaTopics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What idle partitions advance on, against the real embedded Kafka: the broker verifies that
 * nothing committed follows a reader's position (transaction markers do not count), and an answer
 * holds only for the position it was asked about.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BrokerLogEndsITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @Test
    void aPositionIsAtTheEndWhenOnlyMarkersFollowItAndNotOnceARecordDoes() throws Exception {
        LocalStack stack = STACK.get();
        String topic = "log-ends-it-" + System.nanoTime();
        stack.kafka().createTopics(List.of(topic), 1);
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", stack.kafkaBootstrap());
        // three transactions of ten: records at 0-9, 11-20, 22-31, markers at 10, 21 and 32
        KafkaTopics.produceInTransactions(stack.kafkaBootstrap(), topic, 3, 10);
        BrokerLogEnds ends = new BrokerLogEnds(kafka);
        long before = System.currentTimeMillis();
        // a reader that emitted up to offset 20 has ten records to go; asked first, so the check
        // that answers position 32 below has answered it too
        ends.endVerifiedAt(topic, 0, 21);
        long verified = await(() -> ends.endVerifiedAt(topic, 0, 32), "position 32 at the end");
        assertThat(verified).isBetween(before, System.currentTimeMillis());
        assertThat(ends.endVerifiedAt(topic, 0, 21)).isEqualTo(Long.MIN_VALUE);

        // one record more: position 32 is no longer the end, 34 is
        KafkaTopics.produce(
                stack.kafkaBootstrap(), topic, List.<String[]>of(KafkaTopics.kv("k", "late")));
        long written = System.currentTimeMillis();
        Checkpoints.waitUntil(
                () -> ends.endVerifiedAt(topic, 0, 32) == Long.MIN_VALUE,
                "position 32 no longer at the end",
                Duration.ofSeconds(20));
        assertThat(await(() -> ends.endVerifiedAt(topic, 0, 34), "position 34 at the end"))
                .isGreaterThanOrEqualTo(written);
    }

    /**
     * A split that has emitted nothing is asked about with the Kafka source's marker of where it
     * starts: the group's committed offset, or the log's first offset.
     */
    @Test
    void aSplitWithoutARecordIsAtTheEndFromWhereItsMarkerSaysItStarts() throws Exception {
        LocalStack stack = STACK.get();
        String topic = "log-ends-markers-it-" + System.nanoTime();
        String group = "log-ends-markers-group-" + System.nanoTime();
        stack.kafka().createTopics(List.of(topic), 2);
        // ten records to partition 0 (offsets 0-9, the commit marker at 10); partition 1 empty
        KafkaTopics.produceInTransactions(stack.kafkaBootstrap(), topic, 1, 10);
        int filled = 0;
        int empty = 1;
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", stack.kafkaBootstrap());
        kafka.put("group.id", group);
        BrokerLogEnds ends = new BrokerLogEnds(kafka);
        long earliest = KafkaPartitionSplit.EARLIEST_OFFSET;
        long committed = KafkaPartitionSplit.COMMITTED_OFFSET;

        await(() -> ends.endVerifiedAt(topic, empty, earliest), "the empty partition at its end");
        await(() -> ends.endVerifiedAt(topic, empty, committed), "empty, from committed");
        // the records of the other partition are still to be read from its start
        ends.endVerifiedAt(topic, filled, earliest);
        ends.endVerifiedAt(topic, filled, committed);
        await(() -> ends.endVerifiedAt(topic, filled, 11), "position 11 at the end");
        assertThat(ends.endVerifiedAt(topic, filled, earliest)).isEqualTo(Long.MIN_VALUE);
        assertThat(ends.endVerifiedAt(topic, filled, committed))
                .as("nothing committed by the group: from the start")
                .isEqualTo(Long.MIN_VALUE);

        // the group committed the end: a reader starting from its committed offset is at it
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumer(kafka))) {
            c.commitSync(Map.of(new TopicPartition(topic, filled), new OffsetAndMetadata(11)));
        }
        await(() -> ends.endVerifiedAt(topic, filled, committed), "from the committed offset");
        assertThat(ends.endVerifiedAt(topic, filled, earliest)).isEqualTo(Long.MIN_VALUE);
    }

    private static Properties consumer(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("enable.auto.commit", "false");
        return p;
    }

    /** Asks until the answer is known (not {@link Long#MIN_VALUE}); fails after 20 s. */
    private static long await(LongSupplier ask, String what) throws Exception {
        long[] answer = {Long.MIN_VALUE};
        Checkpoints.waitUntil(
                () -> (answer[0] = ask.getAsLong()) != Long.MIN_VALUE,
                what,
                Duration.ofSeconds(20));
        return answer[0];
    }
}
