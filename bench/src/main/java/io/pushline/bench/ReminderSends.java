package io.pushline.bench;

import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The reminder sends on the vendor topics, read committed, with their record times. */
final class ReminderSends {
    /** Many checkpoint intervals: every transaction open at the count has committed by then. */
    static final Duration QUIET = Duration.ofSeconds(10);

    /** Per msgId, sends per device number ({@code d<i>}), saturating at 127. */
    final Map<String, byte[]> perDevice = new HashMap<>();

    private final int devices;
    final TreeMap<Long, Long> perSecond = new TreeMap<>();
    long total;
    long firstWritten = Long.MAX_VALUE;
    long lastWritten;
    long lastVisible;

    /**
     * The reminder pushes the gate passed, per second of their decision's record time: when the
     * sends reached the meter, which holds them a buffer's worth before it writes.
     */
    final TreeMap<Long, Long> decidedPerSecond = new TreeMap<>();

    long firstDecided = Long.MAX_VALUE;

    /**
     * Reads until {@code expected} reminder sends were seen or the deadline, then on until nothing
     * new came for {@link #QUIET}.
     */
    private ReminderSends(int devices) {
        this.devices = devices;
    }

    int count(String msgId, int device) {
        byte[] b = perDevice.get(msgId);
        return b == null ? 0 : b[device];
    }

    /** Reminder sends, counted; how many there were. */
    private int take(Iterable<ConsumerRecord<String, String>> records) {
        int taken = 0;
        for (ConsumerRecord<String, String> r : records) {
            if (r.topic().equals(Topics.DECISIONS)) {
                decided(r);
                continue;
            }
            SendRecord send = Json.read(r.value(), SendRecord.class);
            if (send.msgId == null || !send.msgId.startsWith("reminder-")) {
                continue;
            }
            byte[] b = perDevice.computeIfAbsent(send.msgId, k -> new byte[devices]);
            int d = Integer.parseInt(send.deviceId.substring(1));
            if (b[d] < Byte.MAX_VALUE) {
                b[d]++;
            }
            perSecond.merge(r.timestamp() / 1000, 1L, Long::sum);
            total++;
            taken++;
            firstWritten = Math.min(firstWritten, r.timestamp());
            lastWritten = Math.max(lastWritten, r.timestamp());
            lastVisible = System.currentTimeMillis();
        }
        return taken;
    }

    /** A reminder push's PASS, found in the bytes: a full parse would take the job's CPU. */
    private void decided(ConsumerRecord<String, String> r) {
        String v = r.value();
        if (v.contains("\"msgId\":\"reminder-") && v.contains("\"decision\":\"PASS\"")) {
            decidedPerSecond.merge(r.timestamp() / 1000, 1L, Long::sum);
            firstDecided = Math.min(firstDecided, r.timestamp());
        }
    }

    /** Per second from {@code fireAt}'s on, the first {@code n}: how the gate's passes began. */
    String decidedFrom(long fireAt, int n) {
        StringBuilder b = new StringBuilder();
        for (long sec = fireAt / 1000; sec < fireAt / 1000 + n; sec++) {
            b.append(b.length() == 0 ? "" : " ").append(decidedPerSecond.getOrDefault(sec, 0L));
        }
        return b.toString();
    }

    static ReminderSends read(String kafka, int devices, long expected, long deadline) {
        ReminderSends s = new ReminderSends(devices);
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka);
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("isolation.level", "read_committed");
        p.put("max.poll.records", "10000");
        p.put("enable.auto.commit", "false");
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (Vendor v : Vendor.values()) {
                c.partitionsFor(v.topic())
                        .forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
            }
            c.partitionsFor(Topics.DECISIONS)
                    .forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            // until every push was seen or the deadline: a stall of commits (a slow
            // checkpoint) must not end the count early and pass for missing sends
            while (s.total < expected && System.currentTimeMillis() < deadline) {
                s.take(c.poll(Duration.ofMillis(200)));
            }
            // Then on to the end and through a quiet period: a duplicate committed after the
            // expected count (a replay after a restore, a late transaction) must be counted.
            long quietUntil = System.currentTimeMillis() + QUIET.toMillis();
            while (System.currentTimeMillis() < quietUntil) {
                if (s.take(c.poll(Duration.ofMillis(200))) > 0) {
                    quietUntil = System.currentTimeMillis() + QUIET.toMillis();
                }
            }
        }
        System.out.printf("  %,d reminder sends read from the vendor topics%n", s.total);
        return s;
    }
}
