package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * How fast a running dispatch job applies subscriptions, for {@code bench reminders --lead auto}
 * ({@link ReminderLead}): as many tasks as the round fires, firing a day later (so never within the
 * round), each subscribed by {@code each} of the round's subscribers, timed from the first event
 * produced to the last applied.
 */
record ReminderCalibration(long events, double eventsPerSecond) {
    /** The events a round produces: its tasks, their subscribes and pulls. */
    static long plannedEvents(int tasks, int subscribers) {
        long events = tasks + (long) tasks * subscribers;
        for (int t = 0; t < tasks; t++) {
            for (int i = 0; i < subscribers; i++) {
                if (ReminderBench.pulls(t, i)) {
                    events++;
                }
            }
        }
        return events;
    }

    static ReminderCalibration run(String kafka, FlinkRest rest, String jobId, int tasks, int each)
            throws Exception {
        long start = System.currentTimeMillis();
        long fireAt = (start / 1000 + 86_400) * 1000;
        int n = Math.max(1, each);
        long events = 0;
        try (KafkaProducer<String, String> p = ReminderBench.producer(kafka)) {
            for (int t = 0; t < tasks; t++) {
                p.send(
                        ReminderBench.createTask(
                                "calibrate-" + t, start, fireAt, "UTC", "Calibration " + t));
                events++;
            }
            p.flush();
            for (int t = 0; t < tasks; t++) {
                for (int i = 0; i < n; i++) {
                    p.send(
                            ReminderBench.user(
                                    "calibrate-" + t,
                                    "subscribe",
                                    ReminderBench.uid(i),
                                    System.currentTimeMillis()));
                    events++;
                }
            }
            p.flush();
        }
        long applied = JobMetrics.waitForEvents(rest, jobId, events, 600, new long[2]);
        if (applied < events) {
            throw new IllegalStateException(
                    "lead auto: only "
                            + applied
                            + " of "
                            + events
                            + " calibration events applied in 600 s; give --lead in seconds");
        }
        return new ReminderCalibration(
                events, events / ((System.currentTimeMillis() - start) / 1e3));
    }
}
