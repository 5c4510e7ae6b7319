package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.ConsumerLag;
import io.pushline.common.KafkaIO;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.testkit.KafkaTopics;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What lag-aware idleness stands on, against the real embedded Kafka: a read_committed consumer in
 * this JVM reports its partition read to the end only once it is, commit markers included.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ConsumerLagITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @Test
    void aPartitionIsReadToItsEndOnlyWhenTheConsumerHasReadEveryCommittedRecord() throws Exception {
        LocalStack stack = STACK.get();
        String topic = "lag-it-" + System.nanoTime();
        stack.kafka().createTopics(List.of(topic), 1);
        String kafka = stack.kafkaBootstrap();
        // transactions leave commit markers behind the last record: they are not lag
        KafkaTopics.produceInTransactions(kafka, topic, 3, 10);
        ConsumerLag lag = new ConsumerLag(0); // every question asks the consumers afresh
        assertThat(lag.caughtUp(topic, 0)).as("no consumer reads it yet").isFalse();

        Properties cp = KafkaIO.committedReader(kafka);
        cp.put("max.poll.records", "7");
        cp.put("client.id", topic);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(cp)) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            int read = c.poll(Duration.ofSeconds(10)).count();
            assertThat(read).isBetween(1, 7);
            assertThat(lag.caughtUp(topic, 0)).as("read %d of 30", read).isFalse();
            assertThat(lag.allCaughtUp(List.of(topic))).isFalse();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (read < 30 && System.nanoTime() < deadline) {
                read += c.poll(Duration.ofMillis(200)).count();
            }
            assertThat(read).isEqualTo(30);
            // one more fetch, which finds nothing but the markers
            c.poll(Duration.ofMillis(300));
            assertThat(lag.caughtUp(topic, 0)).isTrue();
            assertThat(lag.allCaughtUp(List.of(topic))).isTrue();
            assertThat(lag.allCaughtUp(List.of("no-such-topic"))).as("nothing read").isFalse();
        }
    }
}
