package io.pushline.bench;

import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.gateway.GatewayOptions;
import io.pushline.schema.Vendor;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The sends {@code bench gateway} fills the vendor topics with, as dispatch writes them: each
 * vendor's share in proportion to its default pacing rate (APNs and FCM most: one call per send),
 * four sends in five of a campaign (one message to many devices, which the multi-token vendors take
 * a thousand a call) and one in five personal (a message of its own). Send i of vendor v goes to
 * device {@code v-d<i>}; every (message, device) is unique, so each must come back as exactly one
 * receipt.
 */
final class GatewaySends {
    /** Devices per campaign message. */
    static final int CAMPAIGN = 20_000;

    private GatewaySends() {}

    /** How many of {@code total} sends each vendor gets. */
    static Map<Vendor, Long> split(long total) {
        double sum = 0;
        for (Vendor v : GatewayOptions.VENDORS) {
            sum += PacingConfig.DEFAULT_RATES.get(v.wireName());
        }
        Map<Vendor, Long> out = new EnumMap<>(Vendor.class);
        long given = 0;
        for (Vendor v : GatewayOptions.VENDORS) {
            long n = (long) (total * PacingConfig.DEFAULT_RATES.get(v.wireName()) / sum);
            out.put(v, n);
            given += n;
        }
        out.merge(Vendor.APNS, total - given, Long::sum);
        return out;
    }

    /** Writes the sends; returns how many. */
    static long fill(String kafka, Map<Vendor, Long> split) throws Exception {
        long t0 = System.nanoTime();
        long written = 0;
        long now = System.currentTimeMillis();
        try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
            for (Map.Entry<Vendor, Long> e : split.entrySet()) {
                Vendor v = e.getKey();
                String topic = v.topic();
                for (long i = 0; i < e.getValue(); i++) {
                    String device = device(v, i);
                    String msgId = msgId(device, i);
                    p.send(new ProducerRecord<>(topic, device, send(v, msgId, device, i, now)));
                    written++;
                }
            }
            p.flush();
        }
        System.out.printf(
                "  %,d sends written to the vendor topics in %.1f s%n",
                written, (System.nanoTime() - t0) / 1e9);
        return written;
    }

    static String device(Vendor v, long i) {
        return v.wireName() + "-d" + i;
    }

    static String msgId(String device, long i) {
        return i % 5 == 0 ? "p-" + device : "camp-" + (i / CAMPAIGN);
    }

    /** Up to {@code max} sends of {@code split} for which {@code answered} is false. */
    static List<String> missing(
            Map<Vendor, Long> split,
            java.util.function.BiPredicate<String, String> answered,
            int max) {
        List<String> out = new java.util.ArrayList<>();
        for (Map.Entry<Vendor, Long> e : split.entrySet()) {
            for (long i = 0; i < e.getValue() && out.size() < max; i++) {
                String device = device(e.getKey(), i);
                String msgId = msgId(device, i);
                if (!answered.test(msgId, device)) {
                    out.add(msgId + "/" + device);
                }
            }
        }
        return out;
    }

    private static String send(Vendor v, String msgId, String device, long i, long ts) {
        return "{\"msgId\":\""
                + msgId
                + "\",\"msgType\":\"promo\",\"level\":2,\"uid\":\"u-"
                + device
                + "\",\"deviceId\":\""
                + device
                + "\",\"vendor\":\""
                + v.wireName()
                + "\",\"token\":\"tok-"
                + device
                + "\",\"title\":\"Hello\",\"body\":\"A bench push number "
                + i
                + "\",\"ts\":"
                + ts
                + "}";
    }
}
