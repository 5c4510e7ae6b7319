package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.BrokerLogEnds;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.KafkaTopics;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
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
