package io.pushline.bench;

import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The records {@code bench chaos} produces: binds, pushes and the realtime traffic thread. */
final class ChaosTraffic {
    /**
     * Realtime traffic: each tick binds a fresh device ({@code rt-dK} of {@code rt-uK}) and pushes
     * a level-3 message to the device bound two seconds before. A push counts as expected once
     * Kafka acknowledged it.
     */
    static final class Realtime extends Thread {
        /** Acknowledged pushes (message and device) with their time, and the push's device. */
        private final Map<String, long[]> pushes = new ConcurrentHashMap<>();

        /** When Kafka acknowledged each realtime device's bind (wall clock). */
        private final Map<Integer, Long> bindAcked = new ConcurrentHashMap<>();

        /**
         * The longest a record took from its time to Kafka's acknowledgement, and when (its time):
         * a record acknowledged long after its time reaches the job late whatever the job does.
         */
        final AtomicLong slowestAckMs = new AtomicLong();

        final AtomicLong slowestAckAt = new AtomicLong();
        private final String kafka;
        private final int perSecond;
        private final AtomicBoolean stop = new AtomicBoolean();

        Realtime(String kafka, int perSecond) {
            super("chaos-realtime");
            setDaemon(true);
            this.kafka = kafka;
            this.perSecond = perSecond;
        }

        @Override
        public void run() {
            AtomicInteger next = new AtomicInteger();
            Vendor[] vendors = Vendor.values();
            try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                long tick = System.currentTimeMillis();
                while (!stop.get()) {
                    long now = System.currentTimeMillis();
                    for (int j = 0; j < perSecond; j++) {
                        int k = next.getAndIncrement();
                        p.send(
                                bind(now, "rt-d" + k, "rt-u" + k, vendors[k % vendors.length]),
                                (md, e) -> {
                                    acked(now);
                                    if (e == null) {
                                        bindAcked.put(k, System.currentTimeMillis());
                                    }
                                });
                        int pushed = k - 2 * perSecond;
                        if (pushed >= 0) {
                            String msgId = "rt-" + pushed;
                            p.send(
                                    push(msgId, now, uids("rt-u" + pushed), 3),
                                    (md, e) -> {
                                        acked(now);
                                        if (e == null) {
                                            pushes.put(
                                                    msgId + "\u0000rt-d" + pushed,
                                                    new long[] {pushed, now});
                                        }
                                    });
                        }
                    }
                    tick += 1000;
                    Thread.sleep(Math.max(0, tick - System.currentTimeMillis()));
                }
                p.flush();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * The realtime pairs the model holds: pushes Kafka acknowledged whose bind it had
         * acknowledged by the push's own time. A bind that reached Kafka only after that (held in
         * this producer through a broker outage: up to 35 s in chaos run 24) is input later than
         * the push it precedes, which no job can order; such pairs are counted apart, not as
         * missing.
         */
        Set<String> expected() {
            Set<String> out = new java.util.HashSet<>();
            pushes.forEach(
                    (pair, kt) -> {
                        Long bound = bindAcked.get((int) kt[0]);
                        if (bound != null && bound <= kt[1]) {
                            out.add(pair);
                        }
                    });
            return out;
        }

        /** The realtime pushes Kafka acknowledged, in the model or not. */
        int acknowledged() {
            return pushes.size();
        }

        private void acked(long ts) {
            long took = System.currentTimeMillis() - ts;
            if (took > slowestAckMs.get()) {
                slowestAckMs.set(took); // callbacks run on the producer's one I/O thread
                slowestAckAt.set(ts);
            }
        }

        void stopAndJoin() throws InterruptedException {
            stop.set(true);
            join();
        }
    }

    static String uids(String uid) {
        return "{\"uids\":[\"" + uid + "\"]}";
    }

    static ProducerRecord<String, String> bind(long ts, String device, String uid, Vendor v) {
        return Pushes.bind(ts, device, uid, v.wireName());
    }

    static ProducerRecord<String, String> push(String msgId, long ts, String target, int level) {
        return new ProducerRecord<>(
                Topics.PUSH_REQUESTS, msgId, Pushes.push(msgId, ts, target, level));
    }

    private ChaosTraffic() {}
}
