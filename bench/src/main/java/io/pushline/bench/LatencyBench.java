package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import io.pushline.common.UsageException;
import io.pushline.local.LocalFlink;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench latency [--devices N] [--realtime-per-second R] [--list-size L] [--slots
 * S] [--shapes ...] [--cluster] [--set key=value ...]}: what a gateway sees (--set: a dispatch job
 * option, to try a setting). On the embedded stack with the checkpoint settings of {@code
 * deploy/flink-conf/config.yaml}, the dispatch job (pacing on, default rates) first runs realtime
 * pushes alone for 20 s, then drains an N-device campaign while they go on; each realtime send is
 * timed from its production to when a read_committed consumer of the vendor topics first sees it
 * (and, in the quiet phase, split where the job wrote it into its open transaction). Then, pacing
 * off, another N-device campaign is timed from its request to its last visible send. Between them,
 * one phase per backlog shape ({@link Backlog}): explicit lists ({@link BacklogShapes}), a reminder
 * task firing ({@link ReminderBacklog}), personal slots due at once ({@link SlotBurst}). {@code
 * --cluster}: the same on {@code pushline cluster} ({@link LatencyTarget}). Every send is counted:
 * duplicates (a (msgId, device) seen twice) and missing ones. Each phase prints CPU and Flink's
 * checkpoint statistics. Last line {@code realtime visible p50 A ms, p99 B ms (worst: SHAPE),
 * campaign C devices/s, duplicates D, missing M (median of R rounds; ...)}.
 */
@Command(
        name = "latency",
        mixinStandardHelpOptions = true,
        description = "Realtime pushes as a read_committed gateway sees them.")
final class LatencyBench extends Bench {
    private static final int REALTIME_DEVICES = RealtimePushes.DEVICES;
    private static final long QUIET_PHASE_MS = 20_000;
    private static final Map<String, String> jobOverrides = new java.util.TreeMap<>();

    @Option(
            names = "--devices",
            paramLabel = "N",
            description = "Campaign devices (default ${DEFAULT-VALUE}).")
    int devices = 1_000_000;

    @Option(
            names = "--realtime-per-second",
            paramLabel = "R",
            description = "Realtime pushes a second (default ${DEFAULT-VALUE}).")
    int perSecond = 3;

    @Option(
            names = "--list-size",
            paramLabel = "L",
            description =
                    "Devices of the explicit-list backlogs: one request of L uids, one of L"
                            + " devices (default ${DEFAULT-VALUE}); the third is always 1,000"
                            + " requests of 100 uids.")
    int listSize = 30_000;

    @Option(
            names = "--slots",
            paramLabel = "S",
            description =
                    "Personal slots due at once in the slots phase, one per campaign user (at most"
                            + " --devices; default ${DEFAULT-VALUE}).")
    int slots = 100_000;

    @Option(
            names = "--shapes",
            split = ",",
            paramLabel = "SHAPE",
            description =
                    "The backlog phases to run after the campaign phase (default all: uids,"
                            + " devices, batches, reminder, slots; none for none).")
    List<String> shapes = ALL_SHAPES;

    private static final List<String> ALL_SHAPES =
            List.of("uids", "devices", "batches", "reminder", "slots");

    @Option(
            names = "--cluster",
            description =
                    "Run against pushline cluster (Kafka, HBase, a JobManager and two TaskManagers"
                            + " as processes of their own, under .pushline/bench/latency-cluster),"
                            + " the dispatch job's jar submitted with Flink's CLI and the cluster's"
                            + " config.yaml made from production's; needs the jar built (mvn -B"
                            + " package).")
    boolean cluster;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "A dispatch job option for the run.")
    Map<String, String> set = new java.util.LinkedHashMap<>();

    @Option(
            names = "--campaign-only",
            description =
                    "Only the campaign with pacing off (phase 2), after an untimed one to warm"
                            + " the code up: its devices/s, duplicates and missing sends, without"
                            + " the realtime phases; for profiling a campaign's cost.")
    boolean campaignOnly;

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        for (String shape : shapes) {
            if (!ALL_SHAPES.contains(shape) && !shape.equals("none")) {
                throw new UsageException("--shapes: each one of " + ALL_SHAPES + ", not " + shape);
            }
        }
        jobOverrides.putAll(set);
        Map<String, String> production = productionCheckpoints();
        System.out.printf(
                "bench latency: %,d-device campaigns, realtime pushes at %d/s; checkpoints as"
                        + " deploy/flink-conf: %s%n",
                devices, perSecond, production);
        int repeat = rounds.count();
        BenchResults results = results();
        long duplicates = 0;
        long missing = 0;
        List<String> worstShapes = new java.util.ArrayList<>();
        for (int r = 1; r <= repeat; r++) {
            if (repeat > 1) {
                System.out.printf("round %d of %d%n", r, repeat);
            }
            Round round = round(production, results);
            duplicates += round.duplicates();
            missing += round.missing();
            if (campaignOnly) {
                // no realtime phases ran: their figures are not in the results
                results.round(
                        BenchResults.figures("campaignDevicesPerSecond", round.campaignRate()));
                continue;
            }
            Map<String, Double> figures =
                    BenchResults.figures(
                            "quietRealtimeP50Ms",
                            (double) round.quietP50(),
                            "quietRealtimeP99Ms",
                            (double) round.quietP99(),
                            "realtimeP50Ms",
                            (double) round.realtimeP50(),
                            "realtimeP99Ms",
                            (double) round.realtimeP99(),
                            "pacedDevicesPerSecond",
                            round.pacedRate(),
                            "campaignDevicesPerSecond",
                            round.campaignRate(),
                            "worstP50Ms",
                            (double) round.worst().p50(),
                            "worstP99Ms",
                            (double) round.worst().p99());
            for (Worst w : round.phases()) {
                figures.put(w.shape() + "RealtimeP50Ms", (double) w.p50());
                figures.put(w.shape() + "RealtimeP99Ms", (double) w.p99());
            }
            results.round(figures);
            worstShapes.add(round.worst().shape());
        }
        results.put("devices", devices);
        results.put("realtimePerSecond", perSecond);
        results.put("checkpoints", production);
        results.put("duplicates", duplicates);
        results.put("missing", missing);
        results.write();
        if (repeat > 1 && !campaignOnly) {
            System.out.printf(
                    Locale.ROOT,
                    "rounds: realtime visible p50 %s ms, p99 %s ms, campaign %s devices/s%n",
                    results.values("realtimeP50Ms"),
                    results.values("realtimeP99Ms"),
                    results.values("campaignDevicesPerSecond"));
        }
        // The realtime figures are those of the worst phase of each round (the highest p99 of
        // any backlog shape), their median over the rounds with the spread (min-max) after it;
        // the shape named is the one that was worst in most rounds; duplicates and missing
        // summed over all rounds.
        if (campaignOnly) {
            System.out.printf(
                    Locale.ROOT,
                    "campaign %,.0f devices/s, duplicates %d, missing %d (median of %d rounds;"
                            + " min-max: %s)%n",
                    results.median("campaignDevicesPerSecond"),
                    duplicates,
                    missing,
                    repeat,
                    results.spread("campaignDevicesPerSecond", "%,.0f"));
            return duplicates == 0 && missing == 0 ? 0 : 1;
        }
        String worst = mostOften(worstShapes);
        results.put("worstShape", worst);
        System.out.printf(
                Locale.ROOT,
                "realtime visible p50 %.0f ms, p99 %.0f ms (worst: %s), campaign %,.0f devices/s,"
                        + " duplicates %d, missing %d (median of %d rounds; min-max: p50 %s,"
                        + " p99 %s, campaign %s)%n",
                results.median("worstP50Ms"),
                results.median("worstP99Ms"),
                worst,
                results.median("campaignDevicesPerSecond"),
                duplicates,
                missing,
                repeat,
                results.spread("worstP50Ms", "%.0f"),
                results.spread("worstP99Ms", "%.0f"),
                results.spread("campaignDevicesPerSecond", "%,.0f"));
        return duplicates == 0 && missing == 0 ? 0 : 1;
    }

    /** One round's figures; {@code phases}: each backlog shape's realtime figures. */
    record Round(
            long quietP50,
            long quietP99,
            long realtimeP50,
            long realtimeP99,
            double pacedRate,
            double campaignRate,
            long duplicates,
            long missing,
            List<Worst> phases) {
        /** The phase whose realtime pushes waited longest (p99). */
        Worst worst() {
            Worst w = new Worst("campaign", realtimeP50, realtimeP99);
            for (Worst p : phases) {
                if (p.p99() > w.p99()) {
                    w = p;
                }
            }
            return w;
        }
    }

    /** A backlog shape's realtime figures. */
    record Worst(String shape, long p50, long p99) {}

    /** The name given most often; on a tie, the first of them. */
    static String mostOften(List<String> names) {
        String best = "none";
        long most = 0;
        for (String n : names) {
            long c = names.stream().filter(n::equals).count();
            if (c > most) {
                best = n;
                most = c;
            }
        }
        return best;
    }

    /**
     * One round on a fresh stack: realtime alone, then behind a paced campaign, then a campaign
     * with pacing off. {@code results} takes the round's run-wide facts (checkpoints, cores).
     */
    private Round round(Map<String, String> production, BenchResults results) throws Exception {
        try (LatencyTarget target =
                cluster
                        ? LatencyTarget.cluster(jobOverrides)
                        : LatencyTarget.embedded(production, jobOverrides)) {
            String kafka = target.kafka();
            target.everyone(devices);
            long bindTs = System.currentTimeMillis() - 60_000;
            try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                String[] vendorOf = Pushes.vendorsByRate();
                for (int i = 0; i < devices; i++) {
                    p.send(Pushes.bind(bindTs, "d" + i, uid(i), vendorOf[i % vendorOf.length]));
                }
                for (int i = 0; i < REALTIME_DEVICES; i++) {
                    p.send(Pushes.bind(bindTs, "rt-d" + i, "rt-u" + i, "fcm"));
                }
                BacklogShapes.bind(p, bindTs, listSize);
                p.flush();
            }
            int shapeDevices = 0;
            for (BacklogShapes.Shape shape : BacklogShapes.Shape.values()) {
                shapeDevices += shape.size(listSize);
            }
            System.out.printf("  %,d binds produced%n", devices + REALTIME_DEVICES + shapeDevices);
            VisibleSends seen = new VisibleSends(kafka);
            seen.start();
            if (campaignOnly) {
                try {
                    double rate = PacingOffCampaign.run(target, seen, results, devices, true);
                    long missing =
                            Math.max(0, devices - seen.count("campaign-warm"))
                                    + Math.max(0, devices - seen.count("campaign-2"));
                    return new Round(
                            -1, -1, -1, -1, 0, rate, seen.duplicates.get(), missing, List.of());
                } finally {
                    seen.close();
                }
            }
            try {
                // phase 1: the campaign at the vendors' pace, realtime pushes throughout
                LatencyTarget.Job job = target.start(true, "lat-1");
                int rest = job.rest();
                long loaded = LatencyJob.marker(kafka, seen, "marker-1", 0);
                System.out.printf("  binds loaded through the job in %.1f s%n", loaded / 1e3);
                // The job mirrors every binding to HBase behind the marker; the phases are timed
                // once that is done, not while its writes take most of the machine.
                LatencyJob.settled(rest, job.id());
                target.warmUp();

                // phase 0: realtime alone, what the checkpoint and event-time settings cost
                Map<String, Long> quietAt = new ConcurrentHashMap<>();
                AtomicBoolean quietStop = new AtomicBoolean();
                Thread quiet = RealtimePushes.start(kafka, perSecond, quietAt, quietStop, "rt0-");
                ProcessCpu cpu0 = target.cpu();
                quiet.start();
                Thread.sleep(QUIET_PHASE_MS);
                quietStop.set(true);
                quiet.join();
                seen.awaitAll(quietAt.keySet(), Duration.ofMinutes(1));
                double cores0 = cpu0.cores();
                long[] l0 = RealtimePushes.gaps(quietAt.keySet(), quietAt, seen.firstSeen);
                long[] written = RealtimePushes.gaps(quietAt.keySet(), quietAt, seen.writtenAt);
                long[] committed =
                        RealtimePushes.gaps(quietAt.keySet(), seen.writtenAt, seen.firstSeen);
                System.out.printf(
                        "Phase 0 (no campaign): %,d realtime pushes, visible p50 %d ms, p99 %d ms,"
                                + " max %d ms; %.2f cores busy%n",
                        quietAt.size(),
                        BenchResults.pct(l0, 50),
                        BenchResults.pct(l0, 99),
                        l0.length == 0 ? -1 : l0[l0.length - 1],
                        cores0);
                CheckpointStats cp0 = CheckpointStats.read(rest, job.id());
                System.out.printf(
                        "  of which produced to written into the job's transaction: p50 %d ms,"
                                + " p99 %d ms; written to visible (commit): p50 %d ms, p99 %d"
                                + " ms%n",
                        BenchResults.pct(written, 50),
                        BenchResults.pct(written, 99),
                        BenchResults.pct(committed, 50),
                        BenchResults.pct(committed, 99));
                System.out.println("  checkpoints so far: " + cp0);

                ProcessCpu cpu1 = target.cpu();
                long campaignAt =
                        LatencyJob.request(kafka, "campaign-1", "{\"audience\":\"everyone\"}", 1);
                AtomicBoolean stop = new AtomicBoolean();
                Map<String, Long> producedAt = new ConcurrentHashMap<>();
                Thread realtime = RealtimePushes.start(kafka, perSecond, producedAt, stop, "rt-");
                realtime.start();
                OperatorLoad load1 = new OperatorLoad(rest, job.id());
                load1.start();
                long drained = seen.await("campaign-1", devices, Duration.ofMinutes(20));
                String busy1 = load1.finish();
                stop.set(true);
                realtime.join();
                seen.awaitAll(producedAt.keySet(), Duration.ofMinutes(2));
                long[] l = RealtimePushes.gaps(producedAt.keySet(), producedAt, seen.firstSeen);
                double cores1 = cpu1.cores();
                CheckpointStats cp1 = CheckpointStats.read(rest, job.id());
                long missingRealtime = producedAt.size() - l.length;
                double pacedRate = seen.count("campaign-1") / ((drained - campaignAt) / 1e3);
                System.out.printf(
                        "Phase 1 (pacing on): campaign drained at %,.0f devices/s; %,d realtime"
                                + " pushes, visible p50 %d ms, p99 %d ms, max %d ms%n",
                        pacedRate,
                        producedAt.size(),
                        BenchResults.pct(l, 50),
                        BenchResults.pct(l, 99),
                        l.length == 0 ? -1 : l[l.length - 1]);
                long[] decided1 =
                        RealtimePushes.gaps(producedAt.keySet(), producedAt, seen.decidedAt);
                long[] paced1 =
                        RealtimePushes.gaps(producedAt.keySet(), seen.decidedAt, seen.writtenAt);
                System.out.printf(
                        "  produced to decided: p50 %d ms, p99 %d ms; decided to written (pacer):"
                                + " p50 %d ms, p99 %d ms%n",
                        BenchResults.pct(decided1, 50),
                        BenchResults.pct(decided1, 99),
                        BenchResults.pct(paced1, 50),
                        BenchResults.pct(paced1, 99));
                long[] written1 =
                        RealtimePushes.gaps(producedAt.keySet(), producedAt, seen.writtenAt);
                long[] committed1 =
                        RealtimePushes.gaps(producedAt.keySet(), seen.writtenAt, seen.firstSeen);
                System.out.printf(
                        "  of which produced to written: p50 %d ms, p99 %d ms; written to visible:"
                                + " p50 %d ms, p99 %d ms%n",
                        BenchResults.pct(written1, 50),
                        BenchResults.pct(written1, 99),
                        BenchResults.pct(committed1, 50),
                        BenchResults.pct(committed1, 99));
                System.out.printf(
                        "  %.2f cores busy; checkpoints of the whole run: %s%n", cores1, cp1);
                System.out.println("  busy/backpressured ms per s (busiest subtask): " + busy1);

                List<Worst> phases = new java.util.ArrayList<>();
                long missingShapes = 0;
                List<Backlog> backlogs = new java.util.ArrayList<>();
                for (BacklogShapes.Shape shape : BacklogShapes.Shape.values()) {
                    backlogs.add(shape.backlog(listSize));
                }
                // the campaign's users subscribe, and have personal slots: no gate rule is set,
                // so a send of the campaign does not stop theirs
                backlogs.add(
                        new ReminderBacklog(
                                devices, LatencyBench::uid, FlinkRest.local(rest), job.id()));
                backlogs.add(new SlotBurst(Math.min(slots, devices), LatencyBench::uid));
                backlogs.removeIf(b -> !shapes.contains(b.key()));
                for (Backlog backlog : backlogs) {
                    BacklogShapes.Phase ph =
                            BacklogShapes.run(backlog, kafka, seen, perSecond, rest, job.id());
                    phases.add(new Worst(ph.shape(), ph.p50(), ph.p99()));
                    missingShapes += ph.missing();
                }
                job.cancel().close();

                double rate = PacingOffCampaign.run(target, seen, results, devices, false);

                long missing =
                        missingRealtime
                                + missingShapes
                                + Math.max(0, devices - seen.count("campaign-1"))
                                + Math.max(0, devices - seen.count("campaign-2"));
                results.put("realtimeCount", producedAt.size());
                results.put("pacedCheckpoints", cp1.toString());
                results.put("pacedCoresBusy", Math.round(cores1 * 100) / 100.0);
                return new Round(
                        BenchResults.pct(l0, 50),
                        BenchResults.pct(l0, 99),
                        BenchResults.pct(l, 50),
                        BenchResults.pct(l, 99),
                        pacedRate,
                        rate,
                        seen.duplicates.get(),
                        missing,
                        phases);
            } finally {
                seen.close();
            }
        }
    }

    /** The checkpoint settings of deploy/flink-conf/config.yaml, without its folders. */
    static Map<String, String> productionCheckpoints() {
        try {
            return LocalFlink.productionCheckpoints();
        } catch (IllegalStateException e) {
            throw new UsageException("bench latency needs " + e.getMessage());
        }
    }

    static String uid(int i) {
        return "user-" + i;
    }
}
