package io.pushline.dispatch;

import io.pushline.audience.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.common.IdDictionary;
import io.pushline.common.SegmentStore;
import io.pushline.local.LocalStack;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.client.Connection;
import org.roaringbitmap.RoaringBitmap;

/**
 * A population for campaign tests: {@code n} uids, most with one device, every 7th with two, every
 * 10th with none; segments {@code sports} (the first two thirds), {@code region:beijing} (even
 * numbers) and {@code churned} (multiples of 3), written to the real HBase through the dictionary
 * and the segment store.
 */
final class Campaigns {
    static final long T = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    static final String EXPRESSION = "sports AND region:beijing AND NOT churned";
    static final String[] VENDORS = {
        "fcm", "apns", "huawei", "honor", "xiaomi", "oppo", "vivo", "longconn"
    };

    final int n;
    final String namespace;

    Campaigns(int n, String namespace) {
        this.n = n;
        this.namespace = namespace;
    }

    static String uid(int i) {
        return String.format("u%05d", i);
    }

    static List<String> devices(int i) {
        if (i % 10 == 0) {
            return List.of();
        }
        String d = String.format("d%05d", i);
        return i % 7 == 0 ? List.of(d + "a", d + "b") : List.of(d);
    }

    static String vendor(String device) {
        return VENDORS[Math.abs(device.hashCode()) % VENDORS.length];
    }

    boolean selected(int i) {
        return i < 2 * n / 3 && i % 2 == 0 && i % 3 != 0;
    }

    /**
     * Assigns every uid an id (in a shuffled order, as real loads come) and writes the segments.
     */
    void writeSegments(LocalStack stack) throws Exception {
        try (Connection c = stack.hbase().newConnection()) {
            HBaseTables.ensure(c, namespace);
            List<String> uids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                uids.add(uid((i * 7919) % n));
            }
            Map<String, Integer> ids;
            try (IdDictionary dict = new IdDictionary(c, namespace, 1000)) {
                ids = dict.assignAll(uids);
            }
            try (SegmentStore store = new SegmentStore(c, namespace)) {
                write(store, ids, "sports", i -> i < 2 * n / 3);
                write(store, ids, "region:beijing", i -> i % 2 == 0);
                write(store, ids, "churned", i -> i % 3 == 0);
            }
        }
    }

    private void write(SegmentStore store, Map<String, Integer> ids, String name, IntPredicate in)
            throws Exception {
        RoaringBitmap b = new RoaringBitmap();
        IntStream.range(0, n).filter(in).forEach(i -> b.add(ids.get(uid(i)).intValue()));
        IdSet set = IdSet.fromBytes(serialize(b));
        store.write(name, set.toBytes(), set.cardinality(), "test");
    }

    private static byte[] serialize(RoaringBitmap b) throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        b.serialize(new java.io.DataOutputStream(out));
        return out.toByteArray();
    }

    /** Binds of every device at T, keyed by device. */
    List<String[]> binds() {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (String d : devices(i)) {
                out.add(
                        DispatchKafkaITCase.kv(
                                d,
                                DispatchKafkaITCase.bind(
                                        T, d, uid(i), vendor(d), "tok-" + d, null, null)));
            }
        }
        return out;
    }

    static String[] campaign(String msgId, long ts, String expression) {
        return DispatchKafkaITCase.kv(
                msgId,
                DispatchKafkaITCase.push(ts, msgId, "{\"audience\":\"" + expression + "\"}"));
    }

    /** "msgId/deviceId/vendor" of every send the campaign should make. */
    TreeSet<String> expectedSends(String msgId) {
        TreeSet<String> out = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            if (selected(i)) {
                for (String d : devices(i)) {
                    out.add(msgId + "/" + d + "/" + vendor(d));
                }
            }
        }
        return out;
    }

    /** Selected uids without a device: one no_device drop each. */
    TreeSet<String> expectedNoDevice(String msgId) {
        return IntStream.range(0, n)
                .filter(i -> selected(i) && devices(i).isEmpty())
                .mapToObj(i -> msgId + "/" + uid(i))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every send in every vendor topic, as "msgId/deviceId/vendor", duplicates kept. */
    static List<String> sends(String kafka) {
        List<String> out = new ArrayList<>();
        for (String v : VENDORS) {
            for (String line : KafkaTopics.readAll(kafka, Topics.vendorTopic(v))) {
                SendRecord s = Json.read(line, SendRecord.class);
                out.add(s.msgId + "/" + s.deviceId + "/" + s.vendor);
            }
        }
        return out;
    }

    static List<Decision> decisions(String kafka) {
        return KafkaTopics.readAll(kafka, Topics.DECISIONS).stream()
                .map(l -> Json.read(l, Decision.class))
                .collect(Collectors.toList());
    }
}
