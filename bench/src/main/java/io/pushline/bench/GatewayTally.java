package io.pushline.bench;

import io.pushline.emulators.LongSet;
import io.pushline.schema.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code push.receipts} as the receipts job does ({@code read_committed}) while {@code bench
 * gateway} runs: distinct (message, device) receipts, duplicates, receipts per type, each receipt's
 * {@code latencyMs} (the gateway's call to the answer it went by) and when the first and the last
 * receipt became visible.
 */
final class GatewayTally extends Thread implements AutoCloseable {
    private static final int MAX_LATENCY_MS = 120_000;

    private final KafkaConsumer<String, String> consumer;
    private final LongSet seen = new LongSet();
    private final AtomicLong distinct = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final Map<String, LongAdder> types = new ConcurrentHashMap<>();
    private final long[] latency = new long[MAX_LATENCY_MS + 1];
    private volatile long first;
    private volatile long last;
    private volatile boolean closed;

    GatewayTally(String kafka) {
        super("bench-gateway-tally");
        setDaemon(true);
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka);
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("isolation.level", "read_committed");
        p.put("max.poll.records", "5000");
        consumer = new KafkaConsumer<>(p);
        List<TopicPartition> parts =
                consumer.partitionsFor(Topics.RECEIPTS).stream()
                        .map(i -> new TopicPartition(i.topic(), i.partition()))
                        .collect(Collectors.toList());
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    @Override
    public void run() {
        while (!closed) {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            long now = System.currentTimeMillis();
            for (ConsumerRecord<String, String> r : records) {
                count(r.value(), now);
            }
        }
        consumer.close();
    }

    private void count(String json, long now) {
        String msgId = field(json, "\"msgId\":\"");
        String device = field(json, "\"deviceId\":\"");
        if (msgId == null || device == null) {
            return;
        }
        if (!seen.add(LongSet.pair(msgId, device))) {
            duplicates.incrementAndGet();
            return;
        }
        String type = field(json, "\"type\":\"");
        String code = field(json, "\"code\":\"");
        types.computeIfAbsent(code == null ? type : type + " " + code, k -> new LongAdder())
                .increment();
        String ms = number(json, "\"latencyMs\":");
        if (ms != null) {
            int l = (int) Math.min(MAX_LATENCY_MS, Long.parseLong(ms));
            synchronized (latency) {
                latency[l]++;
            }
        }
        if (first == 0) {
            first = now;
        }
        last = now;
        distinct.incrementAndGet();
    }

    private static String field(String json, String key) {
        int at = json.indexOf(key);
        if (at < 0) {
            return null;
        }
        int from = at + key.length();
        int to = json.indexOf('"', from);
        return to < 0 ? null : json.substring(from, to);
    }

    private static String number(String json, String key) {
        int at = json.indexOf(key);
        if (at < 0) {
            return null;
        }
        int from = at + key.length();
        int to = from;
        while (to < json.length() && Character.isDigit(json.charAt(to))) {
            to++;
        }
        return to == from ? null : json.substring(from, to);
    }

    /** Whether a receipt of (msgId, device) was seen. */
    boolean answered(String msgId, String device) {
        return seen.contains(LongSet.pair(msgId, device));
    }

    long distinct() {
        return distinct.get();
    }

    long duplicates() {
        return duplicates.get();
    }

    /** Wall-clock ms from the first visible receipt to the last. */
    long spanMs() {
        return last - first;
    }

    long first() {
        return first;
    }

    /** The latency quantile over every receipt with one, in ms. */
    long latencyQuantile(double q) {
        synchronized (latency) {
            long total = 0;
            for (long c : latency) {
                total += c;
            }
            long rank = (long) Math.ceil(q * total);
            long acc = 0;
            for (int i = 0; i < latency.length; i++) {
                acc += latency[i];
                if (acc >= rank && acc > 0) {
                    return i;
                }
            }
            return 0;
        }
    }

    String types() {
        return new java.util.TreeMap<>(types)
                .entrySet().stream()
                        .map(e -> String.format("%s %,d", e.getKey(), e.getValue().sum()))
                        .collect(Collectors.joining(", "));
    }

    /** Waits until {@code n} distinct receipts are visible or none came for {@code quiet}. */
    boolean awaitAll(long n, Duration quiet) throws InterruptedException {
        long seenAt = System.currentTimeMillis();
        long before = -1;
        while (distinct() < n) {
            long d = distinct();
            if (d != before) {
                before = d;
                seenAt = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - seenAt > quiet.toMillis()) {
                return false;
            }
            Thread.sleep(100);
        }
        return true;
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        join(10_000);
    }
}
