package io.pushline.longconn;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.ParsedRecord;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class LongconnRecordsTest {
    private static ParsedRecord parse(String text) {
        ConsumerRecord<byte[], byte[]> r =
                new ConsumerRecord<>(
                        LongconnRecords.SENDS,
                        1,
                        42,
                        "d1".getBytes(StandardCharsets.UTF_8),
                        text.getBytes(StandardCharsets.UTF_8));
        return LongconnRecords.parse(r, text, "1-42");
    }

    /**
     * The tracker's own retries are no new sends, but their position must reach the watermark
     * generator: a split whose last records are retries is otherwise never read to its end.
     */
    @Test
    void aRetryComesOutEmptyWithItsPositionAndNoTime() {
        ParsedRecord retry = parse("{\"msgId\":\"m1\",\"deviceId\":\"d1\",\"attempt\":1}");
        assertThat(retry).isNotNull();
        assertThat(retry.longconn).isNull();
        assertThat(retry.dead).isNull();
        assertThat(retry.source).isEqualTo(LongconnRecords.SENDS);
        assertThat(retry.position).isEqualTo("1-42");
        assertThat(retry.timestamp()).isEqualTo(Long.MIN_VALUE);
    }
}
