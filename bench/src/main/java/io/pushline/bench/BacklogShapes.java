package io.pushline.bench;

import io.pushline.schema.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The backlogs {@code bench latency} puts in front of realtime pushes besides a campaign, each to
 * devices of its own (bound before the job starts, so no gate rule from an earlier phase drops
 * them): one request listing N uids, one listing N devices, N/100 requests of 100 uids each. A
 * phase produces its backlog, then realtime pushes until every send of the backlog is visible to
 * the read_committed reader, and reports what those pushes waited.
 */
final class BacklogShapes {
    /** One shape: a name for the report and the requests it produces. */
    enum Shape {
        UIDS("one request listing %,d uids"),
        DEVICES("one request listing %,d devices"),
        BATCHES("%,d requests of 100 uids each");

        /** The batches shape: a thousand requests of 100 uids, whatever the list size. */
        static final int BATCH_DEVICES = 100_000;

        private final String label;

        Shape(String label) {
            this.label = label;
        }

        String label(int n) {
            return String.format(label, this == BATCHES ? BATCH_DEVICES / 100 : n);
        }

        /** How many devices it targets, given the list size. */
        int size(int listSize) {
            return this == BATCHES ? BATCH_DEVICES : listSize;
        }

        String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        String device(int i) {
            return key() + "-d" + i;
        }

        String uid(int i) {
            return key() + "-u" + i;
        }

        /** The msgIds of this shape's requests; sends are counted over all of them. */
        List<String> msgIds(int listSize) {
            int n = size(listSize);
            if (this != BATCHES) {
                return List.of("shape-" + key());
            }
            List<String> ids = new ArrayList<>();
            for (int k = 0; k < n / 100; k++) {
                ids.add("shape-batch-" + k);
            }
            return ids;
        }

        /** This shape as a backlog of the given list size: level 1 requests, stamped now. */
        Backlog backlog(int listSize) {
            Shape shape = this;
            return new Backlog() {
                @Override
                public String key() {
                    return shape.key();
                }

                @Override
                public String label() {
                    return shape.label(listSize);
                }

                @Override
                public long sends() {
                    return size(listSize);
                }

                @Override
                public long visible(VisibleSends seen) {
                    long n = 0;
                    for (String id : shape.msgIds(listSize)) {
                        n += seen.count(id);
                    }
                    return n;
                }

                @Override
                public long produce(String kafka) throws Exception {
                    try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                        return shape.produce(p, listSize);
                    }
                }
            };
        }

        private long produce(KafkaProducer<String, String> p, int listSize) throws Exception {
            long now = System.currentTimeMillis();
            List<String> ids = msgIds(listSize);
            int n = size(listSize);
            int per = n / ids.size();
            for (int k = 0; k < ids.size(); k++) {
                StringBuilder target =
                        new StringBuilder(this == DEVICES ? "{\"devices\":[" : "{\"uids\":[");
                for (int i = k * per; i < (k + 1) * per; i++) {
                    if (i > k * per) {
                        target.append(',');
                    }
                    target.append('"').append(this == DEVICES ? device(i) : uid(i)).append('"');
                }
                target.append("]}");
                String msgId = ids.get(k);
                p.send(
                        new ProducerRecord<>(
                                Topics.PUSH_REQUESTS,
                                msgId,
                                Pushes.push(msgId, now, target.toString(), 1)));
            }
            p.flush();
            return now;
        }
    }

    /** A phase's figures. */
    record Phase(
            String shape, long p50, long p99, long max, int pushes, long missing, double rate) {}

    /**
     * Realtime pushes a second at least, in these phases: a list drains in seconds, and a p99 needs
     * more than a handful of pushes.
     */
    static final int MIN_REALTIME_PER_SECOND = 10;

    private BacklogShapes() {}

    /** Binds every shape's devices, spread over the vendors by rate. */
    static void bind(KafkaProducer<String, String> p, long ts, int n) {
        String[] vendorOf = Pushes.vendorsByRate();
        for (Shape s : Shape.values()) {
            for (int i = 0; i < s.size(n); i++) {
                p.send(Pushes.bind(ts, s.device(i), s.uid(i), vendorOf[i % vendorOf.length]));
            }
        }
        p.flush();
    }

    /** Runs one shape's phase against the running job; prints its lines. */
    static Phase run(
            Backlog backlog, String kafka, VisibleSends seen, int perSecond, int rest, String job)
            throws Exception {
        long n = backlog.sends();
        Map<String, Long> producedAt = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        long at = backlog.produce(kafka);
        Thread realtime =
                RealtimePushes.start(
                        kafka,
                        Math.max(perSecond, MIN_REALTIME_PER_SECOND),
                        producedAt,
                        stop,
                        "rt-" + backlog.key() + "-");
        realtime.start();
        long deadline = System.currentTimeMillis() + Duration.ofMinutes(10).toMillis();
        long drained;
        while ((drained = System.currentTimeMillis()) < deadline && backlog.visible(seen) < n) {
            Thread.sleep(20);
        }
        // a second more of realtime pushes after the last send: the tail of the backlog
        Thread.sleep(1_000);
        stop.set(true);
        realtime.join();
        seen.awaitAll(producedAt.keySet(), Duration.ofMinutes(2));
        long[] l = RealtimePushes.gaps(producedAt.keySet(), producedAt, seen.firstSeen);
        long sent = backlog.visible(seen);
        double rate = sent / Math.max(0.001, (drained - at) / 1e3);
        Phase phase =
                new Phase(
                        backlog.key(),
                        BenchResults.pct(l, 50),
                        BenchResults.pct(l, 99),
                        l.length == 0 ? -1 : l[l.length - 1],
                        producedAt.size(),
                        (producedAt.size() - l.length) + Math.max(0, n - sent),
                        rate);
        System.out.printf(
                "Phase %s (%s): %,d sends visible in %.1f s (%,.0f devices/s); %,d realtime pushes,"
                        + " visible p50 %d ms, p99 %d ms, max %d ms%n",
                backlog.key(),
                backlog.label(),
                sent,
                (drained - at) / 1e3,
                rate,
                producedAt.size(),
                phase.p50(),
                phase.p99(),
                phase.max());
        long[] decided = RealtimePushes.gaps(producedAt.keySet(), producedAt, seen.decidedAt);
        System.out.printf(
                "  produced to decided: p50 %d ms, p99 %d ms; checkpoints during the phase: %s%n",
                BenchResults.pct(decided, 50),
                BenchResults.pct(decided, 99),
                CheckpointStats.costWithin(rest, job, at, System.currentTimeMillis()));
        return phase;
    }
}
