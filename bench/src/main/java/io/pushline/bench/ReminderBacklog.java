package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A reminder task firing to N subscribers: the task and its subscriptions are produced ahead, the
 * bench waits until the job has applied them, and the backlog begins at the fire, when the task's
 * pushes leave at {@code dispatch.reminders.rate} through the uid index, the gate and the reminder
 * meter.
 */
final class ReminderBacklog implements Backlog {
    static final String TASK = "latency-task";

    private final int subscribers;
    private final IntFunction<String> uidOf;
    private final FlinkRest rest;
    private final String jobId;

    /**
     * @param subscribers how many users subscribe, {@code uidOf(0..n-1)}, each with one bound
     *     device
     * @param rest the job's REST endpoint: the bench waits for its {@code reminderEvents} metric
     */
    ReminderBacklog(int subscribers, IntFunction<String> uidOf, FlinkRest rest, String jobId) {
        this.subscribers = subscribers;
        this.uidOf = uidOf;
        this.rest = rest;
        this.jobId = jobId;
    }

    @Override
    public String key() {
        return "reminder";
    }

    @Override
    public String label() {
        return String.format("a reminder task of %,d subscribers firing", subscribers);
    }

    @Override
    public long sends() {
        return subscribers;
    }

    @Override
    public long visible(VisibleSends seen) {
        return seen.count("reminder-" + TASK);
    }

    @Override
    public long produce(String kafka) throws Exception {
        long now = System.currentTimeMillis();
        // The phase times the fire, not the subscriptions: they are all applied first. Next to a
        // million-device registry they were applied at about 5,000 a second here (378,348 of a
        // million in 81 s), and a fire among them is a subscription storm, not a reminder.
        long fireAt = (now / 1000 + 30 + subscribers / 3_000) * 1000;
        String zone = ReminderBench.zoneFrozenAt(fireAt, now - 60_000);
        try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
            p.send(ReminderBench.createTask(TASK, now, fireAt, zone, "Live at eight"));
            p.flush();
            for (int i = 0; i < subscribers; i++) {
                // stamped when produced, as an app's subscriptions are
                p.send(
                        ReminderBench.user(
                                TASK, "subscribe", uidOf.apply(i), System.currentTimeMillis()));
            }
            p.flush();
        }
        long events = subscribers + 1L;
        int seconds = (int) Math.max(0, (fireAt - 1_000 - System.currentTimeMillis()) / 1000);
        long applied = JobMetrics.waitFor(rest, jobId, "reminderEvents", events, seconds);
        System.out.printf(
                "  reminder: %,d of %,d task and subscribe events applied %.1f s before the fire%n",
                applied, events, (fireAt - System.currentTimeMillis()) / 1e3);
        Backlog.waitUntil(fireAt, 500);
        return fireAt;
    }
}
