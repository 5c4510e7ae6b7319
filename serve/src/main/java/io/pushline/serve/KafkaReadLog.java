package io.pushline.serve;

import io.pushline.format.InboxParser;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the reads served over HTTP to {@code inbox.events} as {@code read} events with their
 * msgIds (keyed by uid, at most {@link InboxParser#MAX_IDS} per event), for the receipts. The inbox
 * itself is already written when this is called, so a send is not waited for: one that fails is
 * logged and counted, and costs a receipt, never the read.
 */
public final class KafkaReadLog implements ReadLog {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaReadLog.class);

    private final KafkaProducer<String, String> producer;
    private final AtomicLong failed = new AtomicLong();

    public KafkaReadLog(Properties kafka) {
        this.producer = KafkaClients.producer(kafka, 5);
    }

    @Override
    public void read(String uid, List<String> msgIds, long ts) {
        for (int from = 0; from < msgIds.size(); from += InboxParser.MAX_IDS) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("ts", ts);
            event.put("type", "read");
            event.put("uid", uid);
            event.put(
                    "msgIds",
                    msgIds.subList(from, Math.min(msgIds.size(), from + InboxParser.MAX_IDS)));
            producer.send(
                    new ProducerRecord<>(Topics.INBOX_EVENTS, uid, Json.write(event)),
                    (meta, e) -> {
                        if (e != null && failed.getAndIncrement() % 1000 == 0) {
                            LOG.warn(
                                    "reads not written to {}: {}",
                                    Topics.INBOX_EVENTS,
                                    e.toString());
                        }
                    });
        }
    }

    /** Reads that could not be written to Kafka so far. */
    public long failed() {
        return failed.get();
    }

    @Override
    public void close() {
        producer.close();
    }
}
