package io.pushline.bench;

import io.pushline.common.KafkaIO;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.roaringbitmap.RoaringBitmap;

/** Reads every vendor topic as a gateway does (read_committed), stamping first sight. */
final class VisibleSends extends Thread implements AutoCloseable {
    final Map<String, Long> firstSeen = new ConcurrentHashMap<>();

    /** When the job wrote the send into its (still open) transaction: the record's time. */
    final Map<String, Long> writtenAt = new ConcurrentHashMap<>();

    /**
     * When the job wrote a realtime push's decision (the gate decided it a network hop before):
     * what the send then waited for is the pacer's.
     */
    final Map<String, Long> decidedAt = new ConcurrentHashMap<>();

    final Map<String, AtomicLong> perMsg = new ConcurrentHashMap<>();

    /** Sends per msgId family: the msgId without its trailing digits ("personal-latency-"). */
    private final Map<String, AtomicLong> perFamily = new ConcurrentHashMap<>();

    final AtomicLong duplicates = new AtomicLong();
    private final Map<String, Devices> pairs = new HashMap<>();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private volatile boolean closed;

    VisibleSends(String kafka) {
        super("bench-visible");
        setDaemon(true);
        Properties p = KafkaIO.committedReader(kafka);
        p.put("max.poll.records", "5000");
        consumer = new KafkaConsumer<>(p);
        List<TopicPartition> parts = new ArrayList<>();
        for (Vendor v : Vendor.values()) {
            consumer.partitionsFor(v.topic())
                    .forEach(i -> parts.add(new TopicPartition(v.topic(), i.partition())));
        }
        consumer.partitionsFor(Topics.DECISIONS)
                .forEach(i -> parts.add(new TopicPartition(Topics.DECISIONS, i.partition())));
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    @Override
    public void run() {
        while (!closed) {
            var polled = consumer.poll(Duration.ofMillis(100));
            long now = System.currentTimeMillis();
            for (ConsumerRecord<byte[], byte[]> r : polled) {
                byte[] v = r.value();
                if (r.topic().equals(Topics.DECISIONS)) {
                    // only realtime pushes' decisions are timed: the rest is not decoded at all
                    int at = valueAt(v, MSG_ID);
                    if (at >= 0 && at + 1 < v.length && v[at] == 'r' && v[at + 1] == 't') {
                        decidedAt.putIfAbsent(string(v, at), r.timestamp());
                    }
                    continue;
                }
                String msgId = string(v, valueAt(v, MSG_ID));
                int device = valueAt(v, DEVICE_ID);
                if (!pairs.computeIfAbsent(msgId, k -> new Devices()).add(v, device)) {
                    duplicates.incrementAndGet();
                    continue;
                }
                firstSeen.putIfAbsent(msgId, now);
                writtenAt.putIfAbsent(msgId, r.timestamp());
                perMsg.computeIfAbsent(msgId, k -> new AtomicLong()).incrementAndGet();
                perFamily.computeIfAbsent(family(msgId), k -> new AtomicLong()).incrementAndGet();
            }
        }
        consumer.close();
    }

    private static final byte[] MSG_ID = "\"msgId\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DEVICE_ID = "\"deviceId\":\"".getBytes(StandardCharsets.UTF_8);

    /**
     * Where the string value after {@code key} starts in {@code json}, or -1. The reader sees
     * millions of sends in a campaign phase and shares the machine with the job: it reads the two
     * fields it needs from the bytes instead of decoding every record.
     */
    static int valueAt(byte[] json, byte[] key) {
        outer:
        for (int i = 0; i + key.length <= json.length; i++) {
            for (int j = 0; j < key.length; j++) {
                if (json[i + j] != key[j]) {
                    continue outer;
                }
            }
            return i + key.length;
        }
        return -1;
    }

    /** The string value starting at {@code at} (up to its closing quote); empty for -1. */
    static String string(byte[] json, int at) {
        if (at < 0) {
            return "";
        }
        int end = at;
        while (end < json.length && json[end] != '"') {
            end++;
        }
        return new String(json, at, end - at, StandardCharsets.UTF_8);
    }

    /**
     * The devices one msgId was seen sent to: the bench's own ids ({@code d} and a number) in a
     * bitmap, any other id as a string. A million-device campaign then costs the reader a few
     * hundred kilobytes, not a million strings on a heap the job shares.
     */
    static final class Devices {
        private final RoaringBitmap numbered = new RoaringBitmap();
        private final Set<String> others = new HashSet<>();

        /** Adds the device id starting at {@code at}; false if it was there already. */
        boolean add(byte[] json, int at) {
            long n = number(json, at);
            if (n >= 0) {
                return numbered.checkedAdd((int) n);
            }
            return others.add(string(json, at));
        }

        /** The number of an id {@code d<digits>} (no leading zero, below 2^31), or -1. */
        private static long number(byte[] json, int at) {
            if (at < 0 || at + 1 >= json.length || json[at] != 'd' || json[at + 1] == '0') {
                return -1;
            }
            long n = 0;
            int i = at + 1;
            for (; i < json.length && json[i] >= '0' && json[i] <= '9'; i++) {
                n = n * 10 + (json[i] - '0');
                if (n > Integer.MAX_VALUE) {
                    return -1;
                }
            }
            return i > at + 1 && i < json.length && json[i] == '"' ? n : -1;
        }
    }

    /** {@code msgId} without its trailing digits. */
    static String family(String msgId) {
        int end = msgId.length();
        while (end > 0 && Character.isDigit(msgId.charAt(end - 1))) {
            end--;
        }
        return msgId.substring(0, end);
    }

    /** Sends of every msgId of a family ({@link #family}), e.g. thousands of one-uid requests. */
    long countFamily(String family) {
        AtomicLong n = perFamily.get(family);
        return n == null ? 0 : n.get();
    }

    long count(String msgId) {
        AtomicLong n = perMsg.get(msgId);
        return n == null ? 0 : n.get();
    }

    /** When the last {@link #await} saw half and nine tenths of its sends (wall clock). */
    long halfAt;

    long ninetyAt;

    /** Waits until {@code n} sends of {@code msgId} are visible; returns when (wall clock). */
    long await(String msgId, long n, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        long last = 0;
        long lastReport = System.currentTimeMillis();
        halfAt = 0;
        ninetyAt = 0;
        while (count(msgId) < n && System.nanoTime() < deadline) {
            Thread.sleep(20);
            long seenNow = count(msgId);
            if (halfAt == 0 && seenNow * 2 >= n) {
                halfAt = System.currentTimeMillis();
            }
            if (ninetyAt == 0 && seenNow * 10 >= n * 9) {
                ninetyAt = System.currentTimeMillis();
            }
            if (n > 1 && System.currentTimeMillis() - lastReport >= 10_000) {
                lastReport = System.currentTimeMillis();
                System.out.printf("    %s: %,d of %,d visible%n", msgId, count(msgId), n);
            }
            last = System.currentTimeMillis();
        }
        return Math.max(last, System.currentTimeMillis());
    }

    void awaitAll(Set<String> msgIds, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!firstSeen.keySet().containsAll(msgIds) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        join(5_000);
    }
}
