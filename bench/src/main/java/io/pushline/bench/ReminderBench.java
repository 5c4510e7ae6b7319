package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import io.pushline.common.CommonOptions;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import io.pushline.schema.reminders.ReminderTimes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench reminders [--subscribers N] [--tasks T] [--rate R] [--lead SECONDS|auto]
 * [--meter-delay D]}: T tasks (default 3) of N subscribers each (default 1,000,000; 30% of them
 * pull the task ahead) fire in the same second through the dispatch job on the embedded stack, at
 * one reminder rate R (default 30,000/s), with deploy/flink-conf's checkpoint settings and vendor
 * pacing off (the reminder rate is the limit measured). The subscriptions arrive before, as
 * subscribe and pull events. Measured: how fast subscription events are applied, the state bytes
 * per subscription (the bitmaps, run-optimized), when each push was written to its vendor topic
 * (Kafka's record time, the job's clock) per whole second against the rate, the makespan against
 * the ideal (pushes / rate), and on the vendor topics (read_committed) that every subscriber who
 * did not pull got exactly one push.
 */
@Command(
        name = "reminders",
        mixinStandardHelpOptions = true,
        description = "Reminder tasks firing together at one rate, end to end.")
final class ReminderBench extends Bench {
    static final String NAMESPACE = "benchreminders";

    @Option(
            names = "--subscribers",
            paramLabel = "N",
            description = "Subscribers a task (default ${DEFAULT-VALUE}).")
    int subscribers = 1_000_000;

    @Option(
            names = "--tasks",
            paramLabel = "T",
            description = "Tasks firing together (default ${DEFAULT-VALUE}).")
    int tasks = 3;

    @Option(
            names = "--rate",
            paramLabel = "R",
            description = "Reminder pushes a second (default ${DEFAULT-VALUE}).")
    int rate = 30_000;

    @Option(
            names = "--lead",
            paramLabel = "SECONDS|auto",
            converter = ReminderLead.Converter.class,
            description =
                    "Seconds from the tasks' creation to the firing, or auto: sized from the rate"
                            + " this machine applies subscriptions at, measured first in the same"
                            + " round (default ${DEFAULT-VALUE}).")
    ReminderLead lead = ReminderLead.AUTO;

    /** How long after fireAt the bench waits for the subscriptions at most. */
    static final int LATE_LIMIT_SECONDS = 1_800;

    @Option(
            names = "--meter-delay",
            paramLabel = "D",
            description = "The pacer's meter delay (default ${DEFAULT-VALUE}).")
    String meterDelay = DispatchOptions.REMINDERS_METER_DELAY.defaultValue().toMillis() + " ms";

    @Mixin Rounds rounds;

    /** One round's figures. */
    record Round(
            double lateSeconds,
            double eventsPerSecond,
            double bytesPerSubscription,
            double rateErrorMaxPct,
            long perSecondMax,
            double makespanSeconds,
            double idealSeconds,
            long duplicates,
            long missing) {
        double makespanOverIdeal() {
            return makespanSeconds / idealSeconds;
        }
    }

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        Map<String, String> production = LatencyBench.productionCheckpoints();
        System.out.printf(
                "bench reminders: %d tasks x %,d subscribers (30%% pull ahead), firing in the same"
                        + " second at %,d pushes/s in all, reminder meter delay %s; checkpoints as"
                        + " deploy/flink-conf%n",
                tasks, subscribers, rate, meterDelay);
        BenchResults results = results();
        long duplicates = 0;
        long missing = 0;
        int late = 0;
        for (int r = 1; r <= repeat; r++) {
            if (repeat > 1) {
                System.out.printf("round %d of %d%n", r, repeat);
            }
            Round round = round(production);
            duplicates += round.duplicates();
            missing += round.missing();
            if (round.lateSeconds() > 0) {
                late++;
            }
            results.round(
                    BenchResults.figures(
                            "subscriptionsLateSeconds",
                            round.lateSeconds(),
                            "eventsPerSecond",
                            round.eventsPerSecond(),
                            "bytesPerSubscription",
                            round.bytesPerSubscription(),
                            "rateErrorMaxPct",
                            round.rateErrorMaxPct(),
                            "perSecondMax",
                            (double) round.perSecondMax(),
                            "makespanSeconds",
                            round.makespanSeconds(),
                            "makespanOverIdeal",
                            round.makespanOverIdeal()));
        }
        results.put("tasks", tasks);
        results.put("subscribers", subscribers);
        results.put("rate", rate);
        results.put("meterDelay", meterDelay);
        results.put("duplicates", duplicates);
        results.put("missing", missing);
        results.write();
        if (repeat > 1) {
            System.out.printf(
                    Locale.ROOT,
                    "rounds: rate error max %s%%, makespan/ideal %s, bytes per subscription %s%n",
                    results.values("rateErrorMaxPct"),
                    results.values("makespanOverIdeal"),
                    results.values("bytesPerSubscription"));
        }
        if (late > 0) {
            System.out.printf(
                    "%d of %d rounds fired late, their subscriptions still being applied at fireAt"
                            + " (see LATE above): their makespan is this machine's subscription"
                            + " rate more than the firing's%n",
                    late, repeat);
        }
        // Each round's rate error is its worst second; the line gives the median over the rounds
        // and the spread (min-max); duplicates and missing are summed over all rounds.
        System.out.printf(
                Locale.ROOT,
                "reminders median of %d rounds (min-max): rate error max %s%%, makespan/ideal %s,"
                        + " bytes per subscription %s, duplicates %d, missing %d%n",
                repeat,
                results.medianAndSpread("rateErrorMaxPct", "%.2f"),
                results.medianAndSpread("makespanOverIdeal", "%.3f"),
                results.medianAndSpread("bytesPerSubscription", "%.3f"),
                duplicates,
                missing);
        return duplicates == 0 && missing == 0 ? 0 : 1;
    }

    /** One firing on a fresh stack: binds, tasks, subscriptions and pulls, the tasks fire. */
    private Round round(Map<String, String> production) throws Exception {
        Path dir = Files.createTempDirectory("pushline-reminders");
        try (LocalStack stack =
                LocalStack.start(dir.resolve("stack"), LocalStack.DEFAULT_START_TIMEOUT)) {
            String kafka = stack.kafkaBootstrap();
            stack.kafka().recreateTopics(Topics.all(), 2);
            long bindTs = System.currentTimeMillis() - 60_000;
            try (KafkaProducer<String, String> p = producer(kafka)) {
                for (int i = 0; i < subscribers; i++) {
                    p.send(
                            new ProducerRecord<>(
                                    Topics.DEVICE_EVENTS,
                                    "d" + i,
                                    String.format(
                                            "{\"ts\":%d,\"type\":\"bind\",\"deviceId\":\"d%d\","
                                                    + "\"uid\":\"%s\",\"vendor\":\"fcm\","
                                                    + "\"token\":\"t-%d\"}",
                                            bindTs, i, uid(i), i)));
                }
                p.flush();
            }
            int restPort = BenchCluster.freePort();
            JobClient job =
                    start(stack, dir.resolve("flink"), production, rate, meterDelay, restPort);
            String jobId = job.getJobID().toString();
            FlinkRest rest = FlinkRest.local(restPort);
            long t0 = System.currentTimeMillis();
            long mirrored =
                    JobMetrics.waitFor(
                            rest, jobId, "hbase.registry.mutations", 2L * subscribers, 600);
            System.out.printf(
                    "  %,d binds loaded and mirrored (%,d registry mutations) in %.1f s%n",
                    subscribers, mirrored, (System.currentTimeMillis() - t0) / 1e3);

            long planned = ReminderCalibration.plannedEvents(tasks, subscribers);
            long calibration = 0;
            int leadSeconds;
            if (lead.auto()) {
                ReminderCalibration c =
                        ReminderCalibration.run(kafka, rest, jobId, tasks, subscribers / 10);
                calibration = c.events();
                double rate = c.eventsPerSecond();
                leadSeconds = lead.seconds(planned, rate);
                System.out.printf(
                        "  lead auto: %,d calibration events applied at %,.0f events/s, so %d s"
                                + " for the round's %,d events%n",
                        calibration, rate, leadSeconds, planned);
            } else {
                leadSeconds = lead.fixedSeconds();
            }
            // a zone in which the fire date has begun: pulls count from its midnight on
            long now = System.currentTimeMillis();
            long fireAt = (now / 1000 + leadSeconds) * 1000;
            String zone = zoneFrozenAt(fireAt, now - 60_000);
            long events = 0;
            long expectedPushes = 0;
            long produceStart = System.currentTimeMillis();
            try (KafkaProducer<String, String> p = producer(kafka)) {
                for (int t = 0; t < tasks; t++) {
                    String task = "task-" + t;
                    p.send(createTask(task, now, fireAt, zone, "Launch " + t));
                    events++;
                }
                p.flush();
                for (int t = 0; t < tasks; t++) {
                    String task = "task-" + t;
                    for (int i = 0; i < subscribers; i++) {
                        // stamped when produced, as an app's subscriptions are: event time moves
                        p.send(user(task, "subscribe", uid(i), System.currentTimeMillis()));
                        events++;
                    }
                }
                for (int t = 0; t < tasks; t++) {
                    String task = "task-" + t;
                    for (int i = 0; i < subscribers; i++) {
                        if (pulls(t, i)) {
                            p.send(user(task, "pull", uid(i), System.currentTimeMillis()));
                            events++;
                        } else {
                            expectedPushes++;
                        }
                    }
                }
                p.flush();
            }
            // the tasks' state, sampled while the events are applied: once they fire, only
            // their small records are left
            long[] state = new long[2];
            long applied =
                    JobMetrics.waitForEvents(rest, jobId, calibration + events, leadSeconds, state)
                            - calibration;
            double lateSeconds;
            if (applied < events) {
                System.out.printf(
                        "  WARNING: only %,d of %,d events applied before the tasks were due to"
                                + " fire%n",
                        applied, events);
                // A task fires once event time passes fireAt, so not before the subscriptions
                // ahead of it are in: wait for them, so that the reader's deadline counts from
                // when the tasks could fire and a late firing is not taken for missing pushes.
                applied =
                        JobMetrics.waitForEvents(
                                        rest,
                                        jobId,
                                        calibration + events,
                                        LATE_LIMIT_SECONDS,
                                        state)
                                - calibration;
            }
            // the first wait counts from the end of production, so it can end after fireAt too
            lateSeconds = Math.max(0, System.currentTimeMillis() - fireAt) / 1e3;
            double subscribeSecs = (System.currentTimeMillis() - produceStart) / 1e3;
            long subs = state[0];
            long bytes = state[1];
            double perSubscription = subs == 0 ? Double.NaN : (double) bytes / subs;
            System.out.printf(
                    "  %,d task, subscribe and pull events applied in %.1f s = %,.0f events/s"
                            + " (produced, read, ids from the dictionary, into the bitmaps)%n",
                    applied, subscribeSecs, applied / subscribeSecs);
            System.out.printf(
                    "  state: %,d subscriptions in %,d bytes of bitmaps = %.3f bytes per"
                            + " subscription%n",
                    subs, bytes, perSubscription);
            if (lateSeconds > 0) {
                System.out.printf(
                        "  LATE: the last subscription events were applied %.1f s after fireAt;"
                                + " the makespan counts from fireAt and so measures how fast this"
                                + " machine applies subscriptions more than the firing (a --lead"
                                + " of %d s would have covered them)%n",
                        lateSeconds, (long) Math.ceil(subscribeSecs * 1.2));
            }
            if (applied < events) {
                System.out.printf(
                        "  WARNING: only %,d of %,d events applied %d s after fireAt%n",
                        applied, events, LATE_LIMIT_SECONDS);
            }
            long wait = Math.max(0, fireAt - System.currentTimeMillis());
            System.out.printf("  the tasks fire in %.1f s (zone %s)%n", wait / 1e3, zone);

            double ideal = (double) expectedPushes / rate;
            // each operator chain's busy and backpressured time while the tasks fire
            OperatorLoad load = new OperatorLoad(restPort, jobId);
            load.start();
            ReminderSends sends =
                    ReminderSends.read(
                            kafka,
                            subscribers,
                            expectedPushes,
                            Math.max(fireAt, System.currentTimeMillis())
                                    + (long) (ideal * 1000 * 2)
                                    + 120_000);
            String busy = load.finish();
            job.cancel().get();

            long duplicates = 0;
            long missing = 0;
            for (int t = 0; t < tasks; t++) {
                for (int i = 0; i < subscribers; i++) {
                    if (pulls(t, i)) {
                        continue;
                    }
                    int n = sends.count("reminder-task-" + t, i);
                    if (n == 0) {
                        missing++;
                    } else if (n > 1) {
                        duplicates += n - 1;
                    }
                }
            }
            long unexpected =
                    sends.total - (expectedPushes - missing) - duplicates; // sends to pullers
            duplicates += Math.max(0, unexpected);
            TreeMap<Long, Long> perSecond = sends.perSecond;
            long first = perSecond.isEmpty() ? 0 : perSecond.firstKey();
            long last = perSecond.isEmpty() ? 0 : perSecond.lastKey();
            double errorMax = 0;
            long maxCount = 0;
            long remaining = sends.total;
            for (long s = first; s <= last; s++) {
                long count = perSecond.getOrDefault(s, 0L);
                long scheduled = Math.min(rate, remaining);
                remaining -= scheduled;
                errorMax = Math.max(errorMax, Math.abs(count - scheduled) * 100.0 / rate);
                maxCount = Math.max(maxCount, count);
            }
            long seconds = perSecond.isEmpty() ? 0 : last - first + 1;
            double makespan = (sends.lastWritten - fireAt) / 1e3;
            double makespanVisible = (sends.lastVisible - fireAt) / 1e3;
            System.out.printf(
                    "Fired: %,d pushes expected; written over %d s, per second max %,d, mean %,.0f"
                            + " (target %,d)%n",
                    expectedPushes,
                    seconds,
                    maxCount,
                    sends.total / (double) Math.max(1, seconds),
                    rate);
            System.out.printf(
                    "  first push written %.2f s after fireAt, last %.2f s after (makespan); ideal"
                            + " %.2f s; last visible to a read_committed reader %.2f s after%n",
                    (sends.firstWritten - fireAt) / 1e3, makespan, ideal, makespanVisible);
            System.out.println("  pushes written per second: " + compact(perSecond));
            System.out.printf(
                    "  first push passed by the gate %.2f s after fireAt; passed per second from"
                            + " fireAt on: %s%n",
                    (sends.firstDecided - fireAt) / 1e3, sends.decidedFrom(fireAt, 12));
            System.out.println(
                    "  busy/backpressured ms per s (busiest subtask), from before the fire to the"
                            + " last send: "
                            + busy);
            return new Round(
                    lateSeconds,
                    applied / subscribeSecs,
                    perSubscription,
                    errorMax,
                    maxCount,
                    makespan,
                    ideal,
                    duplicates,
                    missing);
        } finally {
            LocalStack.deleteRecursively(dir);
        }
    }

    /** 30% of each task's subscribers pull it, a different 30% per task. */
    static boolean pulls(int task, int i) {
        return Math.floorMod(i * 31 + task * 7, 10) < 3;
    }

    /**
     * A bulk producer without idempotence: once, on a saturated machine, the embedded broker
     * refused an idempotent producer's retried batch for ever (OutOfOrderSequenceException) and the
     * bench hung. A bind or subscribe written twice changes nothing.
     */
    static KafkaProducer<String, String> producer(String kafka) {
        Properties p = Pushes.producerProperties(kafka);
        p.put("enable.idempotence", "false");
        p.put("acks", "all");
        return new KafkaProducer<>(p);
    }

    static String uid(int i) {
        return "user-" + i;
    }

    /** A task's create event, fired at {@code fireAt} in {@code zone}. */
    static ProducerRecord<String, String> createTask(
            String task, long ts, long fireAt, String zone, String title) {
        return new ProducerRecord<>(
                Topics.REMINDER_TASKS,
                task,
                String.format(
                        "{\"ts\":%d,\"type\":\"task\",\"op\":\"create\",\"taskId\":\"%s\","
                                + "\"fireAt\":%d,\"zone\":\"%s\",\"title\":\"%s\","
                                + "\"body\":\"claim your gift\"}",
                        ts, task, fireAt, zone, title));
    }

    static ProducerRecord<String, String> user(String task, String type, String uid, long ts) {
        return new ProducerRecord<>(
                Topics.REMINDER_SUBSCRIPTIONS,
                task,
                String.format(
                        "{\"ts\":%d,\"type\":\"%s\",\"taskId\":\"%s\",\"uid\":\"%s\"}",
                        ts, type, task, uid));
    }

    /** A zone in which {@code fireAt}'s date began before {@code by}. */
    static String zoneFrozenAt(long fireAt, long by) {
        for (String z :
                List.of(
                        "UTC",
                        "Asia/Tokyo",
                        "America/New_York",
                        "Pacific/Auckland",
                        "Asia/Kolkata")) {
            if (ReminderTimes.freeze(fireAt, z) <= by) {
                return z;
            }
        }
        throw new IllegalStateException("no zone has begun the fire date");
    }

    private static JobClient start(
            LocalStack stack,
            Path dir,
            Map<String, String> production,
            int rate,
            String meterDelay,
            int restPort)
            throws Exception {
        Configuration flink = BenchCluster.jobCluster(dir, restPort, production);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), NAMESPACE);
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.GROUP_ID.key(), "bench-reminders");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "bench-reminders");
        // the reminder rate is what is measured: vendors take whatever comes
        opts.put(DispatchOptions.PACING_ENABLED.key(), "false");
        opts.put(DispatchOptions.AUDIENCE_HOLD_WATERMARK.key(), "false");
        opts.put(DispatchOptions.REMINDERS_ENABLED.key(), "true");
        opts.put(DispatchOptions.REMINDERS_RATE.key(), Integer.toString(rate));
        opts.put(DispatchOptions.REMINDERS_METER_DELAY.key(), meterDelay);
        return DispatchJob.start(env, Configuration.fromMap(opts));
    }

    private static String compact(TreeMap<Long, Long> perSecond) {
        StringBuilder b = new StringBuilder();
        for (long count : perSecond.values()) {
            b.append(b.length() == 0 ? "" : " ").append(count);
        }
        return b.toString();
    }
}
