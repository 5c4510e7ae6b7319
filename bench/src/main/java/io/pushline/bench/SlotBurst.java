package io.pushline.bench;

import io.pushline.schema.Topics;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Personal slots arriving at once: N requests of one uid each, all due at the same minute, as the
 * schedule feed writes them ({@code msgType} personal, {@code at} the slot, {@code ts} when they
 * were loaded, a deadline an hour later). The feed loads them {@code schedule.lead} ahead; here the
 * slot is seconds ahead, so the phase does not wait half an hour. The job's scheduler holds them
 * and releases them together when the watermark passes the slot: the backlog begins then.
 */
final class SlotBurst implements Backlog {
    private final int slots;
    private final IntFunction<String> uidOf;

    SlotBurst(int slots, IntFunction<String> uidOf) {
        this.slots = slots;
        this.uidOf = uidOf;
    }

    @Override
    public String key() {
        return "slots";
    }

    @Override
    public String label() {
        return String.format("%,d personal slots due at once", slots);
    }

    @Override
    public long sends() {
        return slots;
    }

    private static final String FAMILY = "personal-latency-";

    private static String msgId(int i) {
        return FAMILY + i;
    }

    @Override
    public long visible(VisibleSends seen) {
        return seen.countFamily(FAMILY); // not 100,000 lookups every few milliseconds
    }

    @Override
    public long produce(String kafka) throws Exception {
        long now = System.currentTimeMillis();
        // room to produce and split them all before the slot (about 50,000 a second here)
        long at = now + 5_000 + slots / 10L;
        try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
            for (int i = 0; i < slots; i++) {
                String id = msgId(i);
                p.send(
                        new ProducerRecord<>(
                                Topics.PUSH_REQUESTS,
                                id,
                                String.format(
                                        "{\"ts\":%d,\"type\":\"push\",\"msgId\":\"%s\","
                                                + "\"msgType\":\"personal\",\"level\":1,"
                                                + "\"title\":\"t\",\"body\":\"b\","
                                                + "\"target\":{\"uids\":[\"%s\"]},"
                                                + "\"deadline\":%d,\"at\":%d}",
                                        System.currentTimeMillis(),
                                        id,
                                        uidOf.apply(i),
                                        at + 3_600_000,
                                        at)));
            }
            p.flush();
        }
        long left = at - System.currentTimeMillis();
        System.out.printf("  slots: %,d produced, %.1f s before their slot%n", slots, left / 1e3);
        Backlog.waitUntil(at, 500);
        return at;
    }
}
