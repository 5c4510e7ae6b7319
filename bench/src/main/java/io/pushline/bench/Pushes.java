package io.pushline.bench;

import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** The wire form of the benchmarks' workloads: binds and pushes as a producer writes them. */
final class Pushes {
    private Pushes() {}

    /**
     * Vendors in proportion to their default rates (one entry per 500 sends/s): devices spread this
     * way keep every vendor busy until the campaign ends, so it drains at the sum of the rates, the
     * vendors' pace, not at the slowest vendor's (xiaomi's 500/s over an even share).
     */
    static String[] vendorsByRate() {
        List<String> out = new ArrayList<>();
        for (Vendor v : Vendor.values()) {
            long units = Math.round(PacingConfig.DEFAULT_RATES.get(v.wireName()) / 500);
            for (long u = 0; u < units; u++) {
                out.add(v.wireName());
            }
        }
        return out.toArray(new String[0]);
    }

    static ProducerRecord<String, String> bind(long ts, String device, String uid, String vendor) {
        return new ProducerRecord<>(
                Topics.DEVICE_EVENTS,
                device,
                String.format(
                        "{\"ts\":%d,\"type\":\"bind\",\"deviceId\":\"%s\",\"uid\":\"%s\","
                                + "\"vendor\":\"%s\",\"token\":\"t-%s\"}",
                        ts, device, uid, vendor, device));
    }

    static String push(String msgId, long ts, String target, int level) {
        return String.format(
                "{\"ts\":%d,\"type\":\"push\",\"msgId\":\"%s\",\"msgType\":\"%s\",\"level\":%d,"
                        + "\"title\":\"t\",\"body\":\"b\",\"target\":%s}",
                ts, msgId, level == 3 ? "live_start" : "promo", level, target);
    }

    static KafkaProducer<String, String> producer(String kafka) {
        return new KafkaProducer<>(producerProperties(kafka));
    }

    /** A producer of strings in big batches: what the workloads write with. */
    static Properties producerProperties(String kafka) {
        Properties p = new Properties();
        p.put("bootstrap.servers", kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("linger.ms", "5");
        p.put("batch.size", "262144");
        return p;
    }

    static String field(String json, String name) {
        String key = "\"" + name + "\":\"";
        int i = json.indexOf(key);
        if (i < 0) {
            return "";
        }
        int from = i + key.length();
        return json.substring(from, json.indexOf('"', from));
    }
}
