package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.UsageException;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.dispatch.gate.ExampleRules;
import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.local.LocalStack;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.segments.BuiltSegment;
import io.pushline.segments.SegmentsJob;
import io.pushline.segments.SegmentsOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline demo}: the embedded stack, generated devices and requests, the dispatch job on
 * them, a summary checked against a model of the expected output.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Start the embedded stack, bind devices, send push requests through the dispatch job"
                    + " and the day's other jobs, print a summary checked against a model, stop"
                    + " everything."
        })
final class DemoCommand implements Callable<Integer> {
    /**
     * The contract's example rules, with the reminders' msgType whitelisted: a reminder is a push
     * the user asked for, so caps and quiet hours must not drop it.
     */
    static final String DEMO_RULES =
            ExampleRules.WITH_GENERATED_DEVICES.replace(
                    "msgTypes: [security_notice]", "msgTypes: [security_notice, reminder]");

    @Option(
            names = "--devices",
            paramLabel = "N",
            description = "Devices to bind (default ${DEFAULT-VALUE}).")
    int devices = 100_000;

    @Option(
            names = "--requests",
            paramLabel = "M",
            description = "Push requests to send (default ${DEFAULT-VALUE}).")
    int requests = 3_000;

    @Option(
            names = "--users",
            paramLabel = "U",
            description = "Users with tomorrow's personal pushes (default ${DEFAULT-VALUE}).")
    int users = 20_000;

    @Option(
            names = "--keep",
            description = "Leave the stack, the dispatch job and the console up until Ctrl-C.")
    boolean keep;

    @Option(
            names = "--port",
            paramLabel = "P",
            description =
                    "The console's port with --keep (default ${DEFAULT-VALUE}; 0: a free one).")
    int port = 8080;

    @Override
    public Integer call() throws Exception {
        positive("--devices", devices);
        positive("--requests", requests);
        positive("--users", users);
        if (port < 0 || port > 65_535) {
            throw new UsageException("--port must be 0-65535 (0: a free one), not " + port);
        }
        long t0 = System.nanoTime();
        printTitle(devices, requests, users);
        Path dir = LocalStack.defaultDir().resolve("demo");
        step("[1/9] starting the embedded stack (Kafka KRaft, HBase mini cluster) in " + dir);
        long ts = System.nanoTime();
        try (LocalStack stack = LocalStack.start(dir, LocalStack.DEFAULT_START_TIMEOUT)) {
            System.out.printf(
                    "      up in %.1f s: KAFKA_BOOTSTRAP=%s HBASE_ZK_QUORUM=%s%n",
                    secs(ts), stack.kafkaBootstrap(), stack.hbaseZkQuorum());
            return day(stack, dir, t0, devices, requests, users, keep, port);
        }
    }

    /**
     * The demo on a stack that is already up (the CLI's integration tests share one per JVM): its
     * topics emptied first, so that it reads only its own input, as on a fresh stack. No --keep.
     */
    static int runOn(LocalStack stack, int devices, int requests, int users) throws Exception {
        long t0 = System.nanoTime();
        printTitle(devices, requests, users);
        Path dir = LocalStack.defaultDir().resolve("demo");
        step("[1/9] the embedded stack that is up: its topics emptied");
        stack.kafka().recreateTopics(Topics.all(), 2);
        return day(stack, dir, t0, devices, requests, users, false, 0);
    }

    private static void printTitle(int devices, int requests, int users) {
        System.out.printf(
                "Pushline demo: %,d devices, %,d push requests, %,d users with tomorrow's personal"
                        + " pushes; jobs at parallelism 2%n",
                devices, requests, users);
    }

    /** Steps 2 to 9 on a running stack. */
    private static int day(
            LocalStack stack,
            Path dir,
            long t0,
            int devices,
            int requests,
            int users,
            boolean keep,
            int port)
            throws Exception {
        long ts;
        step("[2/9] generating and producing device events and requests");
        ts = System.nanoTime();
        long base = System.currentTimeMillis() - 3_600_000L;
        DemoData data = DemoData.generate(devices, requests, 42L, base);
        DemoReminders reminders = new DemoReminders(data, base);
        DemoNightly nightly = new DemoNightly(dir.resolve("nightly"), users);
        List<String[]> nightlyBinds = nightly.generate();
        // the nightly users' devices were bound long ago: before the day's events
        DemoTopics.produce(stack.kafkaBootstrap(), Topics.DEVICE_EVENTS, nightlyBinds);
        DemoTopics.produce(stack.kafkaBootstrap(), Topics.DEVICE_EVENTS, data.deviceEvents);
        DemoTopics.produce(stack.kafkaBootstrap(), Topics.REMINDER_TASKS, reminders.tasks);
        DemoTopics.produce(
                stack.kafkaBootstrap(), Topics.REMINDER_SUBSCRIPTIONS, reminders.subscriptions);
        // the requests as an app backend sends them: over the HTTP API, each answered after
        // its commit (the device and reminder events carry the demo's own past times, which the
        // API would stamp with the server's clock, so they go to Kafka directly)
        long api = System.nanoTime();
        List<String[]> refused = DemoApi.send(stack, data.requests);
        // a producer that skips the API can still write them: the job's dead letters show them
        DemoTopics.produce(stack.kafkaBootstrap(), Topics.PUSH_REQUESTS, refused);
        System.out.printf(
                "      %,d push requests through the app API (POST /v1/push, each answered 202"
                        + " after its commit) in %.1f s; %d refused with 400 (written to Kafka"
                        + " directly, for the dead letters)%n",
                data.requests.size() - refused.size(), secs(api), refused.size());
        System.out.printf(
                "      %,d device events, %,d requests and %,d reminder events (2 tasks) in"
                        + " %.1f s; %,d users' activity, interests, history and devices in"
                        + " %s%n",
                data.deviceEvents.size() + nightlyBinds.size(),
                data.requests.size(),
                reminders.tasks.size() + reminders.subscriptions.size(),
                secs(ts),
                users,
                nightly.dir);

        step("[3/9] building audience segments from package files (segment job, BATCH)");
        ts = System.nanoTime();
        Path packages = dir.resolve("packages");
        for (Map.Entry<String, List<String>> e : data.packages.entrySet()) {
            Path file = packages.resolve(e.getKey() + ".txt");
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue(), StandardCharsets.UTF_8);
        }
        Map<String, String> segmentOpts = new HashMap<>(stack.jobOptions());
        segmentOpts.put(SegmentsOptions.FILES.key(), packages.toString());
        StreamExecutionEnvironment batch =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        batch.setParallelism(2);
        SegmentsJob.Report built = SegmentsJob.run(batch, Configuration.fromMap(segmentOpts));
        for (BuiltSegment b : built.segments()) {
            System.out.println("      " + b);
        }
        System.out.printf(
                "      %,d rows in %.1f s; campaigns: %d x '%s' and one with a typo%n",
                built.rows(), secs(ts), data.campaigns, DemoData.CAMPAIGN);

        step(
                "[4/9] the night before: send time, recall and personal slots for "
                        + nightly.date
                        + " (nightly job, BATCH), then the schedule feed");
        ts = System.nanoTime();
        nightly.runNightly(stack);
        System.out.printf(
                "      %,d send times (histogram predictor; within 30 min of the true habit:"
                        + " first %.1f%%, last %.1f%%), %,d recalls, %,d slots in push_schedule"
                        + " (%.1f s)%n",
                nightly.sendTimes,
                100.0 * nightly.firstWithin30 / Math.max(1, nightly.sendTimes),
                100.0 * nightly.lastWithin30 / Math.max(1, nightly.sendTimes),
                nightly.recalls,
                nightly.slots,
                secs(ts));
        ts = System.nanoTime();
        nightly.feed(stack);
        System.out.printf(
                "      feed: the day's slots on push.requests (each 30 min before its slot; the"
                        + " dispatch job holds them until then) in %.1f s%n",
                secs(ts));
        long inputRecords =
                data.deviceEvents.size()
                        + nightlyBinds.size()
                        + data.requests.size()
                        + nightly.slots;

        step("[5/9] running the dispatch job (RocksDB, event time, exactly-once sinks)");
        Path rules = dir.resolve("rules.yaml");
        Files.writeString(rules, DEMO_RULES, StandardCharsets.UTF_8);
        System.out.println(
                "      gate rules: " + rules + " (the contract's example; reminders whitelisted)");
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(DispatchOptions.GATE_RULES.key(), rules.toString());
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // Tomorrow's slots are played now, a day ahead of the wall clock.
        opts.put(DispatchOptions.MAX_FUTURE.key(), "0 s");
        // A day in a minute: each vendor paced at ten times its default rate.
        opts.put(DispatchOptions.PACING_RATES.key(), demoRates());
        opts.put(DispatchOptions.REMINDERS_ENABLED.key(), "true");
        opts.put(DispatchOptions.KEEP_RUNNING.key(), String.valueOf(keep));
        System.out.println("      pacing: " + demoRates() + " sends/s");
        // A demo reports a failure instead of restarting for ever.
        Configuration flink = stack.flinkConfiguration();
        flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        // Its own folder: the dry run reads the newest checkpoint there, never another job's.
        Path checkpoints = dir.resolve("dispatch-checkpoints");
        flink.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        ts = System.nanoTime();
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        long expectedDecisions =
                data.expectedByRegistry.values().stream().mapToLong(x -> x).sum() + nightly.slots;
        double jobSecs;
        if (keep) {
            DemoKeep.awaitDecided(stack.kafkaBootstrap(), job, expectedDecisions, ts);
            jobSecs = secs(ts) - DemoKeep.QUIET_MS / 1000.0;
            System.out.printf(
                    "      input decided in about %.1f s; the job keeps running%n", jobSecs);
        } else {
            jobSecs = awaitFinished(stack.kafkaBootstrap(), job, expectedDecisions, ts);
            System.out.printf("      job finished in %.1f s%n", jobSecs);
        }

        step("[6/9] reading the output topics and HBase");
        int code = summary(stack, data, nightly, inputRecords, jobSecs);
        if (!reminders.check(stack.kafkaBootstrap())) {
            code = Math.max(code, 1);
        }
        System.out.println("      inboxes (pushline serve's API, over HTTP):");
        if (!DemoInbox.check(stack, data)) {
            code = Math.max(code, 1);
        }
        code = Math.max(code, DemoLongconn.run(stack, dir, base));
        code = Math.max(code, DemoReceipts.run(stack, dir));
        System.out.printf("Wall time: %.1f s%n", secs(t0));
        if (keep) {
            return DemoKeep.hold(stack, job, checkpoints, rules, port, code);
        }
        return code;
    }

    /** Waits for the bounded job to finish, printing progress; its run time in seconds. */
    private static double awaitFinished(
            String bootstrap, JobClient job, long expectedDecisions, long ts) throws Exception {
        var result = job.getJobExecutionResult();
        while (!result.isDone()) {
            // Decisions are committed with each checkpoint once the watermark has passed
            // their requests' time; a catch-up run decides most of them as its input ends.
            progress(
                    ts,
                    job,
                    DemoTopics.committedCount(bootstrap, Topics.DECISIONS),
                    expectedDecisions);
            try {
                result.get(2, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException stillRunning) {
                // Print progress again.
            }
        }
        result.get();
        return secs(ts);
    }

    /** The dispatch step's progress line. */
    static void progress(long ts, JobClient job, long decisions, long expected) {
        System.out.printf(
                "      %5.1f s  %s  decisions committed ~%,d of %,d%n",
                secs(ts), status(job), decisions, expected);
    }

    static String demoRates() {
        StringBuilder b = new StringBuilder();
        for (var e : PacingConfig.DEFAULT_RATES.entrySet()) {
            b.append(b.length() == 0 ? "" : ",")
                    .append(e.getKey())
                    .append(':')
                    .append((long) (e.getValue() * 10));
        }
        return b.toString();
    }

    private static int summary(
            LocalStack stack, DemoData data, DemoNightly nightly, long inputRecords, double jobSecs)
            throws Exception {
        String kafka = stack.kafkaBootstrap();
        Map<String, Long> sends = new TreeMap<>();
        for (Vendor v : Vendor.values()) {
            long[] n = {0};
            CommittedRecords.readAll(kafka, v.topic(), r -> n[0]++);
            sends.put(v.topic(), n[0]);
        }
        Map<String, Long> reasons = new TreeMap<>();
        Map<String, Long> passesByVendor = new TreeMap<>();
        Map<String, Long> personal = new TreeMap<>();
        CommittedRecords.readAll(
                kafka,
                Topics.DECISIONS,
                r -> {
                    Decision d =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8), Decision.class);
                    reasons.merge(d.reason == null ? "pass" : d.reason, 1L, Long::sum);
                    if ("personal".equals(d.msgType)) {
                        personal.merge(d.reason == null ? "pass" : d.reason, 1L, Long::sum);
                    }
                    if (d.isPass()) {
                        passesByVendor.merge(Vendor.fromWire(d.vendor).topic(), 1L, Long::sum);
                    }
                });
        long[] dead = {0};
        StringBuilder deadText = new StringBuilder();
        CommittedRecords.readAll(
                kafka,
                Topics.DLQ,
                r -> {
                    dead[0]++;
                    deadText.append(new String(r.value(), StandardCharsets.UTF_8)).append('\n');
                });
        int leaked = DemoData.leakedTokens(deadText, data.tokens) + leakedInLog(data);
        long rows = 0;
        try (Table t = stack.hbase().connection().getTable(HBaseTables.devices("pushline"));
                ResultScanner s = t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()))) {
            while (s.next() != null) {
                rows++;
            }
        }

        long totalSends = sends.values().stream().mapToLong(x -> x).sum();
        long totalDecisions = reasons.values().stream().mapToLong(x -> x).sum();
        System.out.println();
        System.out.println("Sends per vendor topic:");
        for (Map.Entry<String, Long> e : sends.entrySet()) {
            System.out.printf("  %-22s %,10d%n", e.getKey(), e.getValue());
        }
        System.out.printf("  %-22s %,10d%n", "total", totalSends);
        System.out.println("Decisions (push.decisions) by outcome:");
        for (Map.Entry<String, Long> e : reasons.entrySet()) {
            System.out.printf("  %-22s %,10d%n", e.getKey(), e.getValue());
        }
        System.out.println("Personal pushes (the nightly slots, decided at their slot times):");
        for (Map.Entry<String, Long> e : personal.entrySet()) {
            System.out.printf("  %-22s %,10d%n", e.getKey(), e.getValue());
        }
        System.out.printf("Dead letters (push.dlq):  %,d%n", dead[0]);
        System.out.printf("Registry rows in HBase:   %,d%n", rows);
        System.out.printf(
                "Dispatch job: %,d input records in %.1f s = %,.0f records/s, %,.0f decisions/s%n",
                inputRecords, jobSecs, inputRecords / jobSecs, totalDecisions / jobSecs);

        Map<String, Long> expected = data.expectedByRegistry;
        // pulled reminders never reach the gate (DemoReminders checks them)
        long gated =
                totalDecisions
                        - reasons.getOrDefault("no_device", 0L)
                        - reasons.getOrDefault("push_disabled", 0L)
                        - reasons.getOrDefault("pulled", 0L);
        boolean ok =
                sends.equals(withZeros(passesByVendor))
                        && reasons.getOrDefault("no_device", 0L)
                                .equals(expected.getOrDefault("no_device", 0L))
                        && reasons.getOrDefault("push_disabled", 0L)
                                .equals(expected.getOrDefault("push_disabled", 0L))
                        && gated == expected.getOrDefault("gated", 0L) + nightly.slots
                        && personal.values().stream().mapToLong(x -> x).sum() == nightly.slots
                        && dead[0] == data.expectedDeadLetters
                        && leaked == 0
                        && rows == data.expectedRegistryRows + nightly.users;
        System.out.printf(
                "Check: none of the %,d device tokens the demo bound shows in push.dlq or the"
                        + " log. %s%n",
                data.tokens.size(), leaked == 0 ? "OK" : "FAILED: " + leaked + " do");
        if (ok) {
            System.out.println(
                    "Check: no_device, push_disabled, decisions reaching the rules, dead letters and"
                            + " registry rows equal the in-memory model of the input; every personal"
                            + " slot is decided once; every PASS is one send in its vendor's"
                            + " topic. OK");
            return 0;
        }
        System.out.println("Check FAILED: expected");
        System.out.println(
                "  from the registry "
                        + expected
                        + " (gated: reached the rules) + "
                        + nightly.slots
                        + " personal slots, decided "
                        + personal);
        System.out.println("  sends = passes per vendor " + withZeros(passesByVendor));
        System.out.println("  dead letters " + data.expectedDeadLetters);
        System.out.println("  registry rows " + (data.expectedRegistryRows + nightly.users));
        return 1;
    }

    private static Map<String, Long> withZeros(Map<String, Long> m) {
        Map<String, Long> all = new TreeMap<>();
        for (Vendor v : Vendor.values()) {
            all.put(v.topic(), m.getOrDefault(v.topic(), 0L));
        }
        return all;
    }

    static String status(JobClient job) {
        try {
            return job.getJobStatus().get(5, TimeUnit.SECONDS).toString();
        } catch (Exception e) {
            // The per-job MiniCluster goes away as soon as the job has finished.
            return "FINISHING";
        }
    }

    static void step(String what) {
        System.out.println(what);
        System.out.flush();
    }

    static double secs(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new UsageException(name + " must be a positive integer, not " + value);
        }
    }

    /** Tokens of {@code data} in the launcher's log file, when there is one. */
    private static int leakedInLog(DemoData data) throws Exception {
        String file = System.getProperty("pushline.log.file");
        if (file == null || !Files.isRegularFile(Paths.get(file))) {
            return 0;
        }
        return DemoData.leakedTokens(
                Files.readString(Paths.get(file), StandardCharsets.ISO_8859_1), data.tokens);
    }
}
