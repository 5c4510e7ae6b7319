package io.pushline.bench;

import static io.pushline.bench.ChaosTraffic.bind;
import static io.pushline.bench.ChaosTraffic.push;
import static io.pushline.bench.ChaosTraffic.uids;

import io.pushline.bench.ChaosTraffic.Realtime;
import io.pushline.cluster.ClusterLayout;
import io.pushline.cluster.FlinkCli;
import io.pushline.cluster.LocalCluster;
import io.pushline.cluster.Role;
import io.pushline.common.UsageException;
import io.pushline.local.LocalStack;
import io.pushline.schema.Vendor;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench chaos [--devices N] [--realtime-per-second R] [--rate PER_VENDOR]}: the
 * dispatch job's shaded jar on a real multi-process cluster ({@code cluster/}, its own files under
 * {@code .pushline/bench/chaos-cluster}), an N-device campaign drained at the vendors' pace plus
 * realtime pushes to freshly bound devices, while the job is stopped with a savepoint and this
 * checkout's jar resubmitted from it (an upgrade from {@code --upgrade-from}), a TaskManager is
 * killed with {@code -9} twice (restarted after each), the Kafka broker is stopped for 20 s and
 * HBase is stopped for 20 s. Then every send and decision on the topics (read_committed) is counted
 * against the model: one send and one decision per (message, device). Last line {@code chaos kills
 * K, duplicates D, missing M, decisions missing X, recovery max R s}: K counts the kills that
 * happened (the TaskManager was running and the JobManager let it go), R is the slowest recovery.
 * Exits 1 when anything is duplicated or missing or a scheduled fault did not happen.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        description = "Faults on a real multi-process cluster; exit 1 on any loss.")
final class ChaosBench extends Bench {
    static final String NAMESPACE = "chaos";
    static final String CAMPAIGN = "chaos-campaign";
    private static final Duration OUTAGE = Duration.ofSeconds(20);

    /** The faults {@code --faults} may pick: all by default. */
    static final List<String> FAULTS = List.of("kill", "kafka", "hbase", "savepoint");

    /**
     * The version the savepoint step upgrades from, and that runs until then: the one before the
     * sinks pooled their transactional ids, so the upgrade restores sink state of the earlier
     * naming. (It was 680fee6, the last version whose gate state had no {@code passes}; that one
     * predates the fix of a start-up watermark race, so the phases it ran could fail whatever this
     * checkout does. GateUpgradeITCase covers that schema change.)
     */
    static final String UPGRADE_FROM = "87aeb73";

    @Option(
            names = "--devices",
            paramLabel = "N",
            description = "Campaign devices (default ${DEFAULT-VALUE}).")
    int devices = 1_000_000;

    @Option(
            names = "--realtime-per-second",
            paramLabel = "R",
            description = "Realtime pushes a second (default ${DEFAULT-VALUE}).")
    int realtimePerSecond = 20;

    @Option(
            names = "--rate",
            paramLabel = "PER_VENDOR",
            description = "Vendor rate, pushes a second (default ${DEFAULT-VALUE}).")
    int rate = 500;

    @Option(
            names = "--faults",
            split = ",",
            paramLabel = "FAULT",
            description = "Some of kill,kafka,hbase,savepoint (default: all).")
    Set<String> faults = new java.util.HashSet<>(FAULTS);

    @Option(
            names = "--s3",
            description =
                    "Run the cluster as cluster up --s3 does: checkpoints, savepoints (the upgrade's"
                            + " too) and HA metadata on s3proxy.")
    boolean s3;

    @Option(
            names = "--upgrade-from",
            paramLabel = "REVISION",
            description =
                    "The savepoint step's earlier version, or none (default ${DEFAULT-VALUE}).")
    String upgradeFrom = UPGRADE_FROM;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "A dispatch job option for the run.")
    Map<String, String> set = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (!FAULTS.containsAll(faults)) {
            throw new UsageException("--faults takes some of " + FAULTS);
        }
        List<String> extra = new ArrayList<>();
        set.forEach(
                (k, v) -> {
                    extra.add("--" + k);
                    extra.add(v);
                });
        Path home = LocalStack.defaultDir().resolve("bench").resolve("chaos-cluster");
        Path root = ClusterLayout.findRoot();
        LocalCluster cluster = new LocalCluster(new ClusterLayout(home, root));
        // The savepoint step is an upgrade: the job first runs as that earlier version built it.
        Path firstJar =
                faults.contains("savepoint") && !upgradeFrom.equals("none")
                        ? PreviousJar.build(
                                root,
                                upgradeFrom,
                                "dispatch",
                                LocalStack.defaultDir().resolve("bench").resolve("jars"))
                        : null;
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        // A previous run's leftovers go first: every run starts from empty topics and tables.
        cluster.down(true, quiet);
        if (s3) {
            cluster.enableS3();
        }
        System.out.printf(
                "bench chaos: %,d-device campaign at %d sends/s per vendor, %d realtime pushes/s,"
                        + " on a cluster under %s%s%n",
                devices,
                rate,
                realtimePerSecond,
                home,
                s3 ? ", checkpoints and HA on S3 (s3proxy)" : "");
        cluster.up(System.out);
        try (Supervisor supervisor = new Supervisor(cluster)) {
            supervisor.start();
            return new ChaosBench.Run(
                            cluster,
                            supervisor,
                            devices,
                            realtimePerSecond,
                            rate,
                            extra,
                            faults,
                            firstJar)
                    .run();
        } finally {
            System.out.println("Stopping the cluster (files kept under " + home + ") ...");
            cluster.down(false, quiet);
        }
    }

    private static final class Run {
        private final LocalCluster cluster;
        private final Supervisor supervisor;
        private final int devices;
        private final int realtimePerSecond;
        private final int rate;
        private final List<String> extra;
        private final Set<String> faults;
        private final Path firstJar;
        private final List<Incident> incidents = new ArrayList<>();
        private final String run = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        private String jobId;

        Run(
                LocalCluster cluster,
                Supervisor supervisor,
                int devices,
                int realtimePerSecond,
                int rate,
                List<String> extra,
                Set<String> faults,
                Path firstJar) {
            this.firstJar = firstJar;
            this.extra = extra;
            this.faults = faults;
            this.cluster = cluster;
            this.supervisor = supervisor;
            this.devices = devices;
            this.realtimePerSecond = realtimePerSecond;
            this.rate = rate;
        }

        int run() throws Exception {
            String kafka = cluster.layout().kafkaBootstrap();
            try (Connection c = cluster.hbaseLoadConnection()) {
                CampaignBench.everyone(c, NAMESPACE, devices);
            }
            long bindTs = System.currentTimeMillis() - 60_000;
            Vendor[] vendors = Vendor.values();
            try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                for (int i = 0; i < devices; i++) {
                    p.send(bind(bindTs, "d" + i, "user-" + i, vendors[i % vendors.length]));
                }
                p.send(bind(bindTs, "marker-d", "marker-u", Vendor.values()[0]));
                p.flush();
            }
            System.out.printf("  %,d binds produced%n", devices);

            ChaosTally tally = new ChaosTally(kafka, devices);
            tally.start();
            jobId = submit(null, firstJar);
            long t0 = System.currentTimeMillis();
            try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                p.send(push("chaos-marker", System.currentTimeMillis(), uids("marker-u"), 1)).get();
            }
            tally.awaitSeen("chaos-marker", Duration.ofMinutes(10));
            System.out.printf(
                    "  binds loaded through the job in %.1f s (job %s)%n",
                    (System.currentTimeMillis() - t0) / 1e3, jobId);

            Realtime realtime = new Realtime(kafka, realtimePerSecond);
            try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
                p.send(push(CAMPAIGN, System.currentTimeMillis(), "{\"audience\":\"everyone\"}", 1))
                        .get();
            }
            long campaignAt = System.currentTimeMillis();
            realtime.start();
            System.out.println("  campaign sent; realtime pushes running");

            // The upgrade first: the earlier version runs only while the binds load and the
            // campaign starts, so every fault after it hits this checkout's code.
            incident(
                    tally,
                    0.05,
                    "savepoint",
                    firstJar == null
                            ? "stop with savepoint, resubmit"
                            : "stop with savepoint, upgrade",
                    this::savepointAndResubmit);
            incident(
                    tally,
                    0.20,
                    "kill",
                    "kill -9 taskmanager-1",
                    () ->
                            on(
                                    Role.TASKMANAGER_1,
                                    () -> supervisor.killAndRestart(Role.TASKMANAGER_1)));
            incident(
                    tally,
                    0.40,
                    "kafka",
                    "Kafka broker stopped 20 s",
                    () -> on(Role.KAFKA, () -> outage(Role.KAFKA)));
            incident(
                    tally,
                    0.60,
                    "hbase",
                    "HBase stopped 20 s",
                    () -> on(Role.HBASE, () -> outage(Role.HBASE)));
            incident(
                    tally,
                    0.80,
                    "kill",
                    "kill -9 taskmanager-2",
                    () ->
                            on(
                                    Role.TASKMANAGER_2,
                                    () -> supervisor.killAndRestart(Role.TASKMANAGER_2)));

            tally.awaitCampaign(
                    Duration.ofMinutes(15),
                    () ->
                            JobStandstill.print(
                                    cluster.rest(), jobId, "no campaign send for a minute"));
            realtime.stopAndJoin();
            Set<String> model = realtime.expected();
            long leftOut = realtime.acknowledged() - model.size();
            System.out.printf(
                    "  campaign drained %.1f s after it was sent; %,d realtime pushes in the model,"
                            + " %,d left out (their bind reached Kafka after the push's time)%n",
                    (System.currentTimeMillis() - campaignAt) / 1e3, model.size(), leftOut);
            // input acknowledged long after its time reaches the job late: the job cannot help it
            System.out.printf(
                    "  realtime records: slowest acknowledged by Kafka %,d ms after its time (the"
                            + " record stamped %.1f s after the campaign)%n",
                    realtime.slowestAckMs.get(), (realtime.slowestAckAt.get() - campaignAt) / 1e3);
            tally.awaitAll(model, Duration.ofMinutes(3));
            // Late duplicates would come from a replay after the last restore: give them time.
            Thread.sleep(10_000);
            tally.close();

            ChaosTally.Counts counts = tally.counts(model);
            System.out.println(counts.details());
            if (counts.missing() > 0) {
                System.out.println("  " + tally.missingCampaignDevices());
            }
            tally.drops().forEach(d -> System.out.println("  not a PASS: " + d));
            supervisor.restarts().forEach(r -> System.out.println("  unplanned: " + r));
            for (Incident i : incidents) {
                System.out.printf(
                        "  %-28s at %5.1f s: %s%n",
                        i.name,
                        (i.at - campaignAt) / 1e3,
                        i.happened
                                ? String.format(
                                        "sends written after it visible %5.1f s later",
                                        i.recoveryMs / 1e3)
                                : "DID NOT HAPPEN");
            }
            // Four or five incidents make no percentile: the verdict states the worst.
            double max =
                    incidents.stream()
                                    .filter(Incident::happened)
                                    .mapToLong(Incident::recoveryMs)
                                    .max()
                                    .orElse(-1)
                            / 1e3;
            int kills =
                    (int)
                            incidents.stream()
                                    .filter(i -> i.fault.equals("kill") && i.happened)
                                    .count();
            long failedFaults = incidents.stream().filter(i -> !i.happened).count();
            BenchResults results = new BenchResults("chaos", new String[0]);
            results.put("kills", kills);
            results.put("faultsThatDidNotHappen", failedFaults);
            results.put("duplicates", counts.duplicates());
            results.put("missing", counts.missing());
            results.put("decisionsMissing", counts.decisionsMissing());
            results.put("recoveryMaxSeconds", max);
            results.put("unplannedRestarts", supervisor.restarts().size());
            results.put("realtimeLateBinds", leftOut);
            results.write();
            System.out.printf(
                    "chaos kills %d, duplicates %d, missing %d, decisions missing %d, recovery max"
                            + " %.1f s%n",
                    kills, counts.duplicates(), counts.missing(), counts.decisionsMissing(), max);
            boolean lost =
                    counts.duplicates() > 0
                            || counts.missing() > 0
                            || counts.decisionsMissing() > 0;
            if (lost || failedFaults > 0) {
                System.err.println(
                        "chaos: FAILED ("
                                + (lost ? "sends or decisions duplicated or missing" : "")
                                + (lost && failedFaults > 0 ? "; " : "")
                                + (failedFaults > 0
                                        ? failedFaults + " scheduled fault(s) did not happen"
                                        : "")
                                + ")");
                return 1;
            }
            return 0;
        }

        /**
         * Submits the dispatch job, from a savepoint when one is given, from {@code jar} (null:
         * this checkout's); returns its id.
         */
        private String submit(String savepoint, Path jar) throws Exception {
            String rates =
                    java.util.Arrays.stream(Vendor.values())
                            .map(v -> v.wireName() + ":" + rate)
                            .collect(Collectors.joining(","));
            List<String> options =
                    new ArrayList<>(
                            List.of(
                                    "--hbase.namespace",
                                    NAMESPACE,
                                    "--kafka.starting-offsets",
                                    "earliest",
                                    "--dispatch.transactional-id-prefix",
                                    "chaos-" + run,
                                    "--dispatch.pacing.rates",
                                    rates,
                                    // expansion keeps pace with the sends: HBase is read all along
                                    "--dispatch.pacing.max-backlog",
                                    "20000",
                                    // as production runs it: campaigns decided as they expand
                                    "--dispatch.audience.hold-watermark",
                                    "false"));
            if (jar != null) {
                // The earlier version's expander trusted only fresh pacer reports, which reach it
                // late while its output is backpressured: it ran the whole campaign into the
                // pacers within a minute, before the upgrade. Held to the sends' rate, it leaves
                // this checkout's job a campaign to expand under the faults.
                options.add("--dispatch.audience.max-ids-per-second");
                options.add(String.valueOf((long) rate * Vendor.values().length));
            }
            options.addAll(extra); // --set: later options win
            return new FlinkCli(cluster.layout()).submit("dispatch", jar, options, savepoint, null);
        }

        /** Waits until the share of the campaign is visible, then runs the fault and times it. */
        private void incident(ChaosTally tally, double share, String fault, String name, Fault run)
                throws Exception {
            if (!faults.contains(fault)) {
                return;
            }
            tally.awaitCampaignShare(share, Duration.ofMinutes(10));
            long at = System.currentTimeMillis();
            System.out.printf("  %s (campaign %.0f%% visible) ...%n", name, share * 100);
            long faultEnd = run.run();
            if (faultEnd < 0) {
                incidents.add(new Incident(fault, name, at, -1, false));
                System.out.println("    the fault did not happen (see above)");
                return;
            }
            long recovered =
                    tally.awaitWrittenAfter(
                            faultEnd,
                            Duration.ofMinutes(10),
                            () ->
                                    JobStandstill.print(
                                            cluster.rest(),
                                            jobId,
                                            "no send written after the fault for two minutes"));
            Incident i = new Incident(fault, name, at, recovered - faultEnd, true);
            incidents.add(i);
            System.out.printf(
                    "    recovered: sends written after it visible after %.1f s%n",
                    i.recoveryMs / 1e3);
        }

        /**
         * An upgrade: stop with a savepoint (sends of the final checkpoint committed), resubmit
         * this checkout's jar from it (the job ran the {@code --upgrade-from} version's until
         * then); the time the new job was accepted.
         */
        private long savepointAndResubmit() throws Exception {
            long at = System.currentTimeMillis();
            String path = new FlinkCli(cluster.layout()).stopWithSavepoint(jobId, null);
            long stopped = System.currentTimeMillis();
            jobId = submit(path, null);
            System.out.printf(
                    "    savepoint %s in %.1f s; resubmitted as job %s%n",
                    path.substring(path.lastIndexOf('/') + 1), (stopped - at) / 1e3, jobId);
            return System.currentTimeMillis();
        }

        /** Runs a fault on {@code role}'s process, which the supervisor leaves alone meanwhile. */
        private long on(Role role, Fault fault) throws Exception {
            supervisor.hold(role);
            try {
                return fault.run();
            } finally {
                supervisor.release(role);
            }
        }

        /**
         * Stops a process for {@link #OUTAGE}, starts it again; when it answered again, or -1 when
         * it was not running (no outage happened).
         */
        private long outage(Role role) throws Exception {
            long at = System.currentTimeMillis();
            if (!cluster.stop(role)) {
                System.out.printf("    %s was not running: nothing stopped%n", role.id());
                return -1;
            }
            long stopped = System.currentTimeMillis();
            Thread.sleep(Math.max(0, OUTAGE.toMillis() - (stopped - at)));
            cluster.start(role);
            long back = System.currentTimeMillis();
            System.out.printf(
                    "    %s stopped in %.1f s, down %.1f s, answering again %.1f s after the"
                            + " start%n",
                    role.id(),
                    (stopped - at) / 1e3,
                    (back - at) / 1e3,
                    (back - at - OUTAGE.toMillis()) / 1e3);
            return back;
        }
    }

    private interface Fault {
        /** Runs the fault; returns the time it ended. */
        long run() throws Exception;
    }

    /** A fault as it went: {@code happened} false when the process was not there to hit. */
    private record Incident(
            String fault, String name, long at, long recoveryMs, boolean happened) {}
}
