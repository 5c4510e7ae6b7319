package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import io.pushline.common.UsageException;
import io.pushline.emulators.Behaviour;
import io.pushline.emulators.Counts;
import io.pushline.emulators.Emulators;
import io.pushline.gateway.GatewayOptions;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench gateway [--sends N] [--latency-ms L] [--invalid-share I]
 * [--throttle-share T] [--kill-at SHARE] [--cluster] [--set key=value ...]}: the vendor topics
 * filled with N sends ({@link GatewaySends}), the gateway job started on a MiniCluster of two
 * TaskManagers (parallelism 2, the heap state backend and 1 s checkpoints of k8s/base/gateway.yaml)
 * against the vendor emulators answering after L ms, calling a share I of the tokens invalid and
 * throttling a share T of the calls (429 with Retry-After 1 s). When SHARE of the receipts are
 * visible one TaskManager is killed and another started. A read_committed consumer of push.receipts
 * counts every (message, device) against the sends. Last line {@code gateway sends/s S, p99 L ms,
 * resends after kill K (of F in flight), receipts D/N, lost X}: S over the whole run from the first
 * visible receipt to the last (the kill's recovery included), L from each receipt's {@code
 * latencyMs}, K the sends the emulators took a second time after the kill, F the sends in the
 * gateway's calls at the kill (its {@code inFlightSends} gauges). {@code --cluster}: the same on
 * {@code pushline cluster} ({@link GatewayTarget}). Exits 1 when a send is lost or answered twice.
 */
@Command(
        name = "gateway",
        mixinStandardHelpOptions = true,
        description = "The gateway job against the vendor emulators, a TaskManager killed once.")
final class GatewayBench extends Bench {
    @Option(
            names = "--sends",
            paramLabel = "N",
            description = "Sends in the vendor topics (default ${DEFAULT-VALUE}).")
    long sends = 3_000_000;

    @Option(
            names = "--latency-ms",
            paramLabel = "L",
            description = "The emulators' answer latency (default ${DEFAULT-VALUE}).")
    long latencyMs = 20;

    @Option(
            names = "--invalid-share",
            paramLabel = "I",
            description = "Share of tokens the vendors call invalid (default ${DEFAULT-VALUE}).")
    double invalidShare = 0.01;

    @Option(
            names = "--throttle-share",
            paramLabel = "T",
            description = "Share of calls answered 429 (default ${DEFAULT-VALUE}).")
    double throttleShare = 0.002;

    @Option(
            names = "--kill-at",
            paramLabel = "SHARE",
            description =
                    "Kill a TaskManager when this share of receipts is visible; 0: no kill"
                            + " (default ${DEFAULT-VALUE}).")
    double killAt = 0.4;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "A gateway job option for the run.")
    Map<String, String> set = new java.util.LinkedHashMap<>();

    @Option(
            names = "--cluster",
            description =
                    "Run on pushline cluster (Kafka, a JobManager and two TaskManagers as"
                            + " processes of their own, under .pushline/bench/gateway-cluster), the"
                            + " job's jar submitted with Flink's CLI under the cluster's"
                            + " production configuration, the kill a kill -9; needs the jar built"
                            + " (mvn -B package).")
    boolean cluster;

    @Override
    public Integer call() throws Exception {
        if (sends < 1 || killAt < 0 || killAt >= 1) {
            throw new UsageException("--sends must be positive and --kill-at in [0, 1)");
        }
        Behaviour behaviour =
                Behaviour.PLAIN
                        .withLatency(latencyMs)
                        .withInvalidShare(invalidShare)
                        .withThrottleShare(throttleShare);
        System.out.printf(
                "bench gateway: %,d sends; emulators answer after %d ms, %.1f%% tokens invalid,"
                        + " %.1f%% calls throttled; %s%n",
                sends,
                latencyMs,
                invalidShare * 100,
                throttleShare * 100,
                killAt > 0
                        ? String.format("a TaskManager killed at %.0f%% of receipts", killAt * 100)
                        : "no kill");
        Path dir = Files.createTempDirectory("pushline-bench-gateway");
        try (GatewayTarget target =
                        cluster ? new GatewayTarget.Cluster() : new GatewayTarget.Embedded(dir);
                Emulators emulators = Emulators.start(dir.resolve("emulators"), behaviour)) {
            List<String> topics = new ArrayList<>();
            GatewayOptions.VENDORS.forEach(v -> topics.add(v.topic()));
            topics.addAll(
                    List.of(
                            Topics.RECEIPTS,
                            Topics.GATEWAY_ANSWERED,
                            Topics.VENDOR_FEEDBACK,
                            Topics.DLQ));
            target.recreate(topics);
            Map<Vendor, Long> split = GatewaySends.split(sends);
            long n = GatewaySends.fill(target.kafka(), split);
            try (GatewayTally tally = new GatewayTally(target.kafka())) {
                tally.start();
                Map<String, String> options = new java.util.LinkedHashMap<>();
                options.put("kafka.starting-offsets", "earliest");
                options.putAll(emulators.gatewayOptions(dir.resolve("secrets")));
                options.putAll(set);
                String jobId = target.start(options);
                try {
                    int exit = new Run(target, jobId, tally, emulators, n).go();
                    if (tally.distinct() < n) {
                        System.out.println(
                                "  without a receipt (msgId/device): "
                                        + GatewaySends.missing(split, tally::answered, 10));
                    }
                    return exit;
                } finally {
                    target.cancel();
                }
            }
        } finally {
            LocalStack.deleteRecursively(dir);
        }
    }

    /** One run: progress, the kill, the tally. */
    private final class Run {
        private final GatewayTarget target;
        private final FlinkRest rest;
        private final String jobId;
        private final GatewayTally tally;
        private final Emulators emulators;
        private final long n;

        Run(GatewayTarget target, String jobId, GatewayTally tally, Emulators emulators, long n) {
            this.target = target;
            this.rest = target.rest();
            this.jobId = jobId;
            this.tally = tally;
            this.emulators = emulators;
            this.n = n;
        }

        int go() throws Exception {
            long inFlight = -1;
            long resendsBefore = 0;
            long killedAt = 0;
            long lastPrint = System.currentTimeMillis();
            long lastCount = 0;
            long quietSince = System.currentTimeMillis();
            long lastInFlight = 0;
            while (tally.distinct() < n) {
                Thread.sleep(200);
                String ended = target.ended();
                if (ended != null) {
                    throw new IllegalStateException("the gateway job ended: " + ended);
                }
                long now = System.currentTimeMillis();
                long d = tally.distinct();
                if (d != lastCount) {
                    quietSince = now;
                } else if (now - quietSince > 120_000) {
                    System.out.println("  no new receipt for two minutes: giving up");
                    break;
                }
                if (now - lastPrint >= 5_000) {
                    lastInFlight = inFlight(jobId, lastInFlight);
                    System.out.printf(
                            "  %5.1f s  %,d receipts (%,.0f/s), emulators took %,d, %,d sends in"
                                    + " flight%n",
                            tally.first() == 0 ? 0 : (now - tally.first()) / 1e3,
                            d,
                            (d - lastCount) * 1000.0 / (now - lastPrint),
                            emulators.total(c -> c.accepted),
                            lastInFlight);
                    lastPrint = now;
                    lastCount = d;
                }
                if (killAt > 0 && killedAt == 0 && d >= killAt * n) {
                    // the gauges as Flink's REST last fetched them (every 10 s by default)
                    inFlight = inFlight(jobId, lastInFlight);
                    resendsBefore = emulators.total(c -> c.resends);
                    killedAt = System.currentTimeMillis();
                    boolean killed = target.kill();
                    System.out.printf(
                            "  %s at %,d receipts (%,d sends in flight)%n",
                            killed ? "a TaskManager killed and another started" : "NO KILL",
                            d,
                            inFlight);
                    if (!killed) {
                        inFlight = -1;
                    }
                }
            }
            tally.awaitAll(n, Duration.ofSeconds(5)); // late duplicates from a replay
            Thread.sleep(3_000);
            return report(inFlight, emulators.total(c -> c.resends) - resendsBefore);
        }

        /** The job's inFlightSends gauges summed; {@code otherwise} when REST does not answer. */
        private long inFlight(String jobId, long otherwise) {
            try {
                return rest.sum(jobId, "inFlightSends");
            } catch (Exception e) {
                return otherwise;
            }
        }

        private int report(long inFlight, long resends) throws Exception {
            long d = tally.distinct();
            double rate = d * 1000.0 / Math.max(1, tally.spanMs());
            long p99 = tally.latencyQuantile(0.99);
            System.out.println("  receipts: " + tally.types());
            for (Vendor v : GatewayOptions.VENDORS) {
                Counts c = emulators.counts(v);
                System.out.printf("  %-7s %s%n", v.wireName(), c);
            }
            System.out.printf(
                    "  latency p50 %d ms, p99 %d ms, p99.9 %d ms; duplicates %,d%n",
                    tally.latencyQuantile(0.5),
                    p99,
                    tally.latencyQuantile(0.999),
                    tally.duplicates());
            if (inFlight < 0) {
                // K then counts the whole run's resends, F is not measured (-1)
                System.out.printf(
                        "  no kill: %,d resends over the run, calls retried after a timeout or"
                                + " 5xx that the vendor had already taken%n",
                        resends);
            }
            BenchResults results = results();
            results.put("sendsPerSecond", rate);
            results.put("p99Ms", p99);
            results.put("resendsAfterKill", resends);
            results.put("inFlightAtKill", inFlight);
            results.put("receipts", d);
            results.put("sends", n);
            results.put("duplicates", tally.duplicates());
            results.write();
            System.out.printf(
                    "gateway sends/s %.0f, p99 %d ms, resends after kill %d (of %d in flight),"
                            + " receipts %d/%d, lost %d%n",
                    rate, p99, resends, inFlight, d, n, n - d);
            return n - d > 0 || tally.duplicates() > 0 ? 1 : 0;
        }
    }
}
