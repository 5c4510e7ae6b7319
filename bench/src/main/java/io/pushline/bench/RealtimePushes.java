package io.pushline.bench;

import io.pushline.schema.Topics;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The realtime pushes {@code bench latency} times: level 3, each to one of {@value #DEVICES}
 * devices bound for them, stamped when produced.
 */
final class RealtimePushes {
    static final int DEVICES = 100;

    private RealtimePushes() {}

    /** Produces a realtime push every 1000/R ms until stopped, each stamped when produced. */
    static Thread start(
            String kafka,
            int perSecond,
            Map<String, Long> producedAt,
            AtomicBoolean stop,
            String prefix) {
        return new Thread(
                () -> {
                    try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                        long gap = 1000L / Math.max(1, perSecond);
                        for (int i = 0; !stop.get(); i++) {
                            String msgId = prefix + i;
                            long now = System.currentTimeMillis();
                            p.send(
                                    new ProducerRecord<>(
                                            Topics.PUSH_REQUESTS,
                                            msgId,
                                            Pushes.push(
                                                    msgId,
                                                    now,
                                                    "{\"uids\":[\"rt-u" + (i % DEVICES) + "\"]}",
                                                    3)));
                            p.flush();
                            producedAt.put(msgId, now);
                            Thread.sleep(gap);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "bench-realtime");
    }

    /** Sorted times from {@code from} to {@code to} of the pushes in {@code ids} that have both. */
    static long[] gaps(Set<String> ids, Map<String, Long> from, Map<String, Long> to) {
        return ids.stream()
                .filter(id -> from.containsKey(id) && to.containsKey(id))
                .mapToLong(id -> to.get(id) - from.get(id))
                .sorted()
                .toArray();
    }
}
