package io.pushline.gateway;

import io.pushline.schema.gateway.GatewayReceipt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The gateway's own record of what the vendors answered, written the moment an answer comes (not in
 * the checkpoint's transaction: a call cannot be rolled back, so neither is its record). After a
 * restore the job re-reads the vendor topics from the checkpoint and would call the vendor again
 * for every send answered since; {@link VendorSender} reads this log from the checkpoint's time
 * instead and answers those sends with the receipt logged, so only the calls whose answer was not
 * yet logged when the job failed (those in flight) go to the vendor a second time.
 *
 * <p>A record per call: key the vendor, value one line per answered send ({@code type, msgId,
 * deviceId, code, token, latencyMs}, separated by U+0001; the token only for token_invalid, which
 * push.receipts carries too).
 */
final class AnsweredLog implements AutoCloseable {
    private static final char SEP = '\u0001';

    /**
     * One producer per TaskManager and Kafka client settings, shared by its senders (seven vendors
     * × the slots): a producer each sent the one broker thousands of small produce requests a
     * second, and its request handlers took 11% of bench gateway's CPU samples.
     */
    private static final Map<Properties, Shared> SHARED = new HashMap<>();

    private static final class Shared {
        final KafkaProducer<String, String> producer;
        int users;

        Shared(KafkaProducer<String, String> producer) {
            this.producer = producer;
        }
    }

    private final Properties key;
    private final KafkaProducer<String, String> producer;
    private final String topic;
    private boolean closed;

    AnsweredLog(Properties client, String topic) {
        Properties p = new Properties();
        p.putAll(client);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("linger.ms", "5");
        p.put("compression.type", "lz4");
        p.put("acks", "all");
        this.key = p;
        this.topic = topic;
        synchronized (SHARED) {
            Shared s = SHARED.computeIfAbsent(p, k -> new Shared(new KafkaProducer<>(k)));
            s.users++;
            this.producer = s.producer;
        }
    }

    /** Logs the answers of one call (receipts only; reports for the pacer are not answers). */
    void write(String vendor, List<GatewayReceipt> answers) {
        StringBuilder b = new StringBuilder(answers.size() * 48);
        for (GatewayReceipt r : answers) {
            if (r.isFeedback()) {
                continue;
            }
            if (b.length() > 0) {
                b.append('\n');
            }
            b.append(r.type).append(SEP).append(r.msgId).append(SEP).append(r.deviceId);
            b.append(SEP).append(r.code == null ? "" : r.code);
            b.append(SEP).append(r.token == null ? "" : r.token);
            b.append(SEP).append(r.latencyMs == null ? "" : r.latencyMs.toString());
        }
        if (b.length() > 0) {
            producer.send(new ProducerRecord<>(topic, vendor, b.toString()));
        }
    }

    /** The key a send is found under: its msgId and device. */
    static String key(String msgId, String deviceId) {
        return msgId + SEP + deviceId;
    }

    /** Parses one logged line back into a receipt of {@code vendor}; null when unreadable. */
    static GatewayReceipt parse(String vendor, String line) {
        String[] f = line.split(String.valueOf(SEP), -1);
        if (f.length != 6) {
            return null;
        }
        GatewayReceipt r = new GatewayReceipt();
        r.type = f[0];
        r.msgId = f[1];
        r.deviceId = f[2];
        r.code = f[3].isEmpty() ? null : f[3];
        r.token = f[4].isEmpty() ? null : f[4];
        r.latencyMs = f[5].isEmpty() ? null : Long.valueOf(f[5]);
        r.vendor = vendor;
        return r;
    }

    /**
     * Every answer of {@code vendor} logged since {@code sinceMs} (Kafka's record time), up to the
     * log's end as it is now, by {@link #key}; at most {@code max} (the oldest first).
     */
    static Map<String, GatewayReceipt> since(
            Properties client, String topic, String vendor, long sinceMs, int max) {
        Properties p = new Properties();
        p.putAll(client);
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("enable.auto.commit", "false");
        p.put("fetch.max.wait.ms", "20");
        Map<String, GatewayReceipt> out = new HashMap<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            c.assign(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            Map<TopicPartition, Long> at = new HashMap<>();
            parts.forEach(tp -> at.put(tp, sinceMs));
            Map<TopicPartition, OffsetAndTimestamp> from = c.offsetsForTimes(at);
            for (TopicPartition tp : parts) {
                OffsetAndTimestamp o = from.get(tp);
                c.seek(tp, o == null ? end.get(tp) : o.offset());
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (!reached(c, parts, end) && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    if (!vendor.equals(r.key()) || r.value() == null) {
                        continue;
                    }
                    for (String line : r.value().split("\n")) {
                        GatewayReceipt g = parse(vendor, line);
                        if (g != null && out.size() < max) {
                            out.put(key(g.msgId, g.deviceId), g);
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean reached(
            KafkaConsumer<String, String> c,
            List<TopicPartition> parts,
            Map<TopicPartition, Long> end) {
        for (TopicPartition tp : parts) {
            if (c.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    /** Sends what this sender logged; the producer closes with its last user. */
    @Override
    public void close() {
        KafkaProducer<String, String> last = null;
        synchronized (SHARED) {
            if (closed) {
                return;
            }
            closed = true;
            Shared s = SHARED.get(key);
            if (s != null && --s.users == 0) {
                SHARED.remove(key);
                last = s.producer;
            }
        }
        if (last != null) {
            last.close(Duration.ofSeconds(5));
        } else {
            producer.flush();
        }
    }
}
