package io.pushline.longconn;

import io.pushline.common.CommittedRecords;
import io.pushline.common.KafkaIO;
import io.pushline.schema.Fallback;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** What the long-connection ITCases read from the topics. */
final class LongconnTopics {
    private LongconnTopics() {}

    /**
     * The record time of each device's send on push.vendor.longconn (read committed): the "sent"
     * time the tracker counts from.
     */
    static Map<String, Long> sentAt(String kafka) {
        Map<String, Long> out = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(KafkaIO.toEndReader(kafka))) {
            List<TopicPartition> parts =
                    CommittedRecords.partitions(c, Topics.vendorTopic("longconn"));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofSeconds(1))) {
                    SendRecord s =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8),
                                    SendRecord.class);
                    if (s.attempt == null) { // a retry of the job's is no first send
                        out.put(s.deviceId, r.timestamp());
                    }
                }
            }
        }
        return out;
    }

    /** A send on the long connection as the dispatch job writes it, at the wall clock's time. */
    static SendRecord send(
            String msgId, String uid, String deviceId, String token, Fallback fallback) {
        SendRecord s = new SendRecord();
        s.msgId = msgId;
        s.msgType = "news";
        s.level = 2;
        s.uid = uid;
        s.deviceId = deviceId;
        s.vendor = "longconn";
        s.token = token;
        s.title = "Hello";
        s.body = "B";
        s.ts = System.currentTimeMillis();
        s.fallback = fallback;
        return s;
    }
}
