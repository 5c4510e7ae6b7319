package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.ParsedRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class RecordTextTest {
    @Test
    void bytesThatAreNotUtf8MakeADeadLetterNamingTheByte() throws Exception {
        byte[] good =
                "{\"ts\":1,\"type\":\"unbind\",\"deviceId\":\"dé\"}"
                        .getBytes(StandardCharsets.UTF_8);
        byte[] bad =
                "{\"ts\":1,\"type\":\"unbind\",\"deviceId\":\"d\u0000\"}"
                        .getBytes(StandardCharsets.UTF_8);
        bad[bad.length - 3] = (byte) 0xC3; // a lead byte followed by '"': malformed
        assertThat(RecordText.decode(good)).contains("dé");
        assertThat(RecordText.problem(bad))
                .isEqualTo("not valid UTF-8 (byte " + (bad.length - 3) + " of " + bad.length + ")");

        List<ParsedRecord> out = new ArrayList<>();
        Collector<ParsedRecord> collect =
                new Collector<>() {
                    @Override
                    public void collect(ParsedRecord r) {
                        out.add(r);
                    }

                    @Override
                    public void close() {}
                };
        ParsedRecordDeserializer d = new ParsedRecordDeserializer();
        d.deserialize(new ConsumerRecord<>("device.events", 0, 7L, null, bad), collect);
        d.deserialize(new ConsumerRecord<>("device.events", 0, 8L, null, good), collect);
        d.deserialize(new ConsumerRecord<>("device.events", 0, 9L, null, null), collect);
        assertThat(out.get(0).dead.reason).startsWith("not valid UTF-8");
        assertThat(out.get(0).dead.position).isEqualTo("0-7");
        assertThat(out.get(1).event.deviceId).isEqualTo("dé");
        assertThat(out.get(2).dead.reason).isEqualTo("empty record");
    }
}
