package io.pushline.bench;

import io.pushline.common.UsageException;
import io.pushline.local.LocalStack;
import io.pushline.longconn.AckRules;
import io.pushline.longconn.Tracking;
import io.pushline.schema.longconn.DeviceLink;
import io.pushline.schema.longconn.DeviceLinkSerializer;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.SendBytes;
import io.pushline.schema.longconn.TrackedSend;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench longconn [--sends N] [--devices D] [--tracker-sends M] [--tracker-devices
 * E] [--tracker-rate F] [--seed S] [--repeat R]}: three retry policies over one generated
 * population with network outages ({@link LongconnPolicies}), then the ack tracker's throughput
 * against a plain keyed count over the same sends and acks on one MiniCluster (RocksDB, parallelism
 * 2), and its state bytes per tracked message on disk.
 */
@Command(
        name = "longconn",
        mixinStandardHelpOptions = true,
        description = "Retry policies over outages; the ack tracker vs a keyed count.")
final class LongconnBench extends Bench {
    /** The long-connection job's checkpoint interval and pause in k8s/base/longconn.yaml. */
    static final String CHECKPOINT_INTERVAL = "2 s";

    static final String CHECKPOINT_MIN_PAUSE = "500 ms";

    static final long T0 = 1_767_225_600_000L;
    private static final int MAX_PARALLELISM = 128;

    @Option(
            names = "--sends",
            paramLabel = "N",
            description = "Sends of the policy table (default ${DEFAULT-VALUE}).")
    int sends = 1_000_000;

    @Option(
            names = "--devices",
            paramLabel = "D",
            description = "Devices of the policy table (default ${DEFAULT-VALUE}).")
    int devices = 50_000;

    @Option(
            names = "--tracker-sends",
            paramLabel = "M",
            description = "Sends through the tracker (default ${DEFAULT-VALUE}).")
    int trackerSends = 2_000_000;

    @Option(
            names = "--tracker-devices",
            paramLabel = "E",
            description = "Devices of the tracker run (default ${DEFAULT-VALUE}).")
    int trackerDevices = 1_000_000;

    @Option(
            names = "--tracker-rate",
            paramLabel = "F",
            description = "Sends a second to the tracker (default ${DEFAULT-VALUE}).")
    int trackerRate = 100_000;

    @Option(names = "--seed", paramLabel = "S", description = "Default ${DEFAULT-VALUE}.")
    long seed = 20261124;

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        if (sends <= 0
                || devices <= 0
                || trackerSends <= 0
                || trackerDevices <= 0
                || trackerRate <= 0) {
            throw new UsageException(
                    "--sends, --devices, --tracker-sends, --tracker-devices and --tracker-rate"
                            + " must be > 0");
        }
        BenchResults results = results();
        System.out.printf(
                "bench longconn: %,d sends over one day to %,d devices (seed %d); policies"
                        + " simulated on the same networks, then the tracker on a MiniCluster%n",
                sends, devices, seed);
        double[] policy = policies(sends, devices, seed, results);
        System.out.printf(
                "the tracker: %,d sends to %,d devices (94%% acked at once, 2%% after retries, 3%%"
                        + " fall back, 1%% given up) against a plain keyed count of the same"
                        + " events, timers in RocksDB and checkpoints every "
                        + CHECKPOINT_INTERVAL
                        + " as k8s/base/longconn.yaml has them; event time"
                        + " moves at %,d sends/s, as it would live at that rate; %d round(s),"
                        + " medians reported%n",
                trackerSends,
                trackerDevices,
                trackerRate,
                repeat);
        double[] tracker = tracker(trackerSends, trackerDevices, trackerRate, repeat, results);
        double r = policy[0];
        double c = policy[1];
        double t = tracker[0];
        results.put("adaptiveFixedResends", r);
        results.put("adaptiveFixedCompensationP99", c);
        results.put("trackerPlainRatio", t);
        results.write();
        System.out.printf(
                "longconn adaptive/fixed resends %.2f, compensation p99 adaptive/fixed %.2f,"
                        + " tracker/plain ratio %s%n",
                r, c, results.medianAndSpread("trackerPlainRatio", "%.2f"));
        return 0;
    }

    private static String need(String v, String flag) {
        if (v == null) {
            throw new UsageException(flag + " needs a value");
        }
        return v;
    }

    /** The policy table; returns adaptive/fixed for resends per ack and compensation p99. */
    static double[] policies(int sends, int devices, long seed, BenchResults results) {
        long t0 = System.nanoTime();
        long[][] times = sendTimes(sends, devices, seed);
        long horizon = LongconnPolicies.DAY + 10 * LongconnPolicies.HOUR;
        List<LongconnPolicies.Network> nets = new ArrayList<>(devices);
        long outages = 0;
        long[] kinds = new long[2];
        for (int d = 0; d < devices; d++) {
            LongconnPolicies.Network n = LongconnPolicies.network(seed, d, horizon);
            nets.add(n);
            outages += n.start.length;
            for (boolean det : n.detected) {
                kinds[det ? 1 : 0]++;
            }
        }
        System.out.printf(
                "population: %,d outages (%,d unnoticed by the server, %,d seen after a 30 s"
                        + " heartbeat); %,d devices on an app version that never acks%n",
                outages,
                kinds[0],
                kinds[1],
                nets.stream().filter(n -> n.version.equals(LongconnPolicies.OLD_VERSION)).count());
        boolean first = true;
        double fixedResends = 0;
        double fixedP99 = 0;
        double[] out = new double[2];
        for (LongconnPolicies.Policy p : LongconnPolicies.policies()) {
            LongconnPolicies.Outcome o = new LongconnPolicies.Outcome();
            for (int d = 0; d < devices; d++) {
                LongconnPolicies.simulate(p, nets.get(d), times[d], seed + d, o);
            }
            if (first) {
                System.out.printf(
                        "first sends that arrived: %.2f%% (the issue's channel: 97%%)%n",
                        100.0 * o.firstSendArrived / o.sends);
                results.put("firstSendArrived", (double) o.firstSendArrived / o.sends);
                first = false;
                System.out.printf(
                        "%-11s %9s %9s %9s %9s %12s %10s %10s %12s%n",
                        "policy",
                        "tracked",
                        "acked",
                        "fallback",
                        "gave up",
                        "resends/ack",
                        "comp p50",
                        "comp p99",
                        "reached p99");
            }
            double perAck = (double) o.resends / Math.max(1, o.acked);
            long p50 = o.compensation.percentile(0.50);
            long p99 = o.compensation.percentile(0.99);
            long reached99 = o.reached.percentile(0.99);
            System.out.printf(
                    "%-11s %9d %8.2f%% %8.2f%% %8.2f%% %12.3f %9.1fs %9.1fs %11.1fs%n",
                    p.name(),
                    o.tracked,
                    100.0 * o.acked / o.tracked,
                    100.0 * o.fallbacks / o.tracked,
                    100.0 * o.giveUps / o.tracked,
                    perAck,
                    p50 / 1000.0,
                    p99 / 1000.0,
                    reached99 / 1000.0);
            String k = p.name().replace("+", "Plus");
            results.put(k + "Acked", (double) o.acked / o.tracked);
            results.put(k + "FellBack", (double) o.fallbacks / o.tracked);
            results.put(k + "GaveUp", (double) o.giveUps / o.tracked);
            results.put(k + "ResendsPerAck", perAck);
            results.put(k + "CompensationP50Ms", p50);
            results.put(k + "CompensationP99Ms", p99);
            results.put(k + "Compensated", o.compensation.size());
            results.put(k + "ReachedP99Ms", reached99);
            if (p.name().equals("fixed")) {
                fixedResends = perAck;
                fixedP99 = p99;
            } else if (p.name().equals("adaptive")) {
                out[0] = perAck / fixedResends;
                out[1] = p99 / fixedP99;
            }
        }
        System.out.printf(
                "(compensation, for the messages the first send missed: until a channel that"
                        + " delivers had it (a retry that arrived, the vendor channel, the app's"
                        + " pull); reached: until the phone had it; simulated in %.1f s)%n",
                (System.nanoTime() - t0) / 1e9);
        return out;
    }

    /** Each device's send times over one day, sorted; send i goes to a device drawn by seed. */
    static long[][] sendTimes(int sends, int devices, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] count = new int[devices];
        int[] device = new int[sends];
        long[] at = new long[sends];
        for (int i = 0; i < sends; i++) {
            device[i] = r.nextInt(devices);
            at[i] = (long) (r.nextDouble() * LongconnPolicies.DAY);
            count[device[i]]++;
        }
        long[][] times = new long[devices][];
        for (int d = 0; d < devices; d++) {
            times[d] = new long[count[d]];
            count[d] = 0;
        }
        for (int i = 0; i < sends; i++) {
            times[device[i]][count[device[i]]++] = at[i];
        }
        for (long[] t : times) {
            java.util.Arrays.sort(t);
        }
        return times;
    }

    /** The tracker against a plain keyed count; returns {tracker/plain}. */
    static double[] tracker(int sends, int devices, int rate, int repeat, BenchResults results)
            throws Exception {
        Path work = Files.createTempDirectory("pushline-bench-longconn");
        try {
            Configuration conf = BenchCluster.configuration(work);
            // timers where the long-connection job keeps them in production
            // (k8s/base/longconn.yaml:
            // a tracked message is a timer), not on the heap as deploy/flink-conf has it
            conf.set(
                    RocksDBOptions.TIMER_SERVICE_FACTORY,
                    EmbeddedRocksDBStateBackend.PriorityQueueStateType.ROCKSDB);
            // checkpoints as k8s/base/longconn.yaml takes them (the local stack's 1 s until
            // 2026-11-29): every checkpoint writes the devices the tracker holds on the heap
            conf.setString("execution.checkpointing.interval", CHECKPOINT_INTERVAL);
            conf.setString("execution.checkpointing.min-pause", CHECKPOINT_MIN_PAUSE);
            MiniClusterConfiguration mc = BenchCluster.twoSlots(conf);
            double[] ratios = new double[repeat];
            try (MiniCluster cluster = new MiniCluster(mc)) {
                cluster.start();
                URI rest = cluster.getRestAddress().get();
                int warm = Math.min(sends, 500_000);
                timed(rest, conf, "warm-up plain", warm, devices, rate, false, true);
                timed(rest, conf, "warm-up tracker", warm, devices, rate, true, true);
                for (int r = 0; r < repeat; r++) {
                    if (repeat > 1) {
                        System.out.printf("round %d of %d%n", r + 1, repeat);
                    }
                    double plain =
                            timed(
                                    rest,
                                    conf,
                                    "plain keyed count",
                                    sends,
                                    devices,
                                    rate,
                                    false,
                                    false);
                    double job =
                            timed(rest, conf, "ack tracker", sends, devices, rate, true, false);
                    ratios[r] = job / plain;
                    results.round(
                            BenchResults.figures(
                                    "plainSendsPerSecond",
                                    plain,
                                    "trackerSendsPerSecond",
                                    job,
                                    "trackerPlainRatio",
                                    job / plain));
                }
            }
            stateBytes(work, devices, results);
            return new double[] {BenchResults.median(ratios)};
        } finally {
            LocalStack.deleteRecursively(work);
        }
    }

    private static double timed(
            URI rest,
            Configuration conf,
            String name,
            int sends,
            int devices,
            int rate,
            boolean tracker,
            boolean quiet)
            throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment(
                        rest.getHost(), rest.getPort(), conf);
        env.setParallelism(2);
        DataStream<LongconnEvent> input =
                env.fromSequence(0, sends - 1L)
                        .flatMap(new LongconnSends(devices, sends, rate))
                        .returns(TypeInformation.of(LongconnEvent.class))
                        .assignTimestampsAndWatermarks(
                                WatermarkStrategy.<LongconnEvent>forBoundedOutOfOrderness(
                                                Duration.ofSeconds(1))
                                        .withTimestampAssigner((e, t) -> e.ts));
        if (tracker) {
            Duration ttl = Duration.ofDays(1);
            Tracking.build(input, AckRules.defaults(), ttl, MAX_PARALLELISM)
                    .actions()
                    .sinkTo(new DiscardingSink<>());
        } else {
            input.keyBy(e -> e.deviceId)
                    .process(new CountPerKey<LongconnEvent>())
                    .returns(Types.LONG)
                    .setMaxParallelism(MAX_PARALLELISM)
                    .sinkTo(new DiscardingSink<>());
        }
        // the job's own run time, as the JobManager measured it: the client learns of the end
        // only at its next status poll
        double secs =
                env.execute("bench-longconn-" + name.replace(' ', '-'))
                                .getNetRuntime(java.util.concurrent.TimeUnit.MILLISECONDS)
                        / 1e3;
        double measured = sends / secs;
        if (!quiet) {
            System.out.printf(
                    "%-18s %,12.0f sends/s  (%,d sends and their acks in %.1f s)%n",
                    name, measured, sends, secs);
        }
        return measured;
    }

    /**
     * State bytes per tracked message, as the tracker's RocksDB holds it once compacted: a device's
     * {@link DeviceLink} value with one message in flight (key group, deviceId, namespace; TTL,
     * presence and version, the tracked message with its send) and the message's timer; against the
     * plain count's one entry per device.
     */
    static void stateBytes(Path work, int devices, BenchResults results) throws Exception {
        int n = 200_000;
        DataOutputSerializer out = new DataOutputSerializer(512);
        DataOutputSerializer key = new DataOutputSerializer(64);
        long tracked;
        long plain;
        try (StateOnDisk disk =
                new StateOnDisk(
                        work.resolve("tracked"),
                        org.rocksdb.CompressionType.ZSTD_COMPRESSION,
                        true)) {
            for (int i = 0; i < n; i++) {
                String device = "d" + i;
                TrackedSend t = new TrackedSend();
                t.msgId = "m" + i;
                t.sentTs = T0 + i * 2L;
                t.lastAttempt = t.sentTs;
                t.delay = 10_000;
                t.send = SendBytes.of(LongconnSends.send(i, device, t.sentTs));
                DeviceLink d = new DeviceLink();
                d.online = true;
                d.appVersion = "7.4.0";
                d.add(t);
                out.clear();
                DeviceLinkSerializer.INSTANCE.serialize(d, out);
                key.clear();
                StringSerializer.INSTANCE.serialize(device, key);
                key.writeByte(0); // the void namespace
                int group = KeyGroupRangeAssignment.assignToKeyGroup(device, MAX_PARALLELISM);
                disk.put(group, key.getCopyOfBuffer(), out.getCopyOfBuffer(), T0);
                // its timer: key group, due time, key, namespace; no value
                key.clear();
                key.writeLong(t.due());
                StringSerializer.INSTANCE.serialize(device, key);
                key.writeByte(0);
                disk.put(group, key.getCopyOfBuffer(), new byte[0], T0);
            }
            tracked = disk.compactedBytes();
        }
        try (StateOnDisk disk =
                new StateOnDisk(
                        work.resolve("plain"),
                        org.rocksdb.CompressionType.ZSTD_COMPRESSION,
                        true)) {
            for (int d = 0; d < Math.min(devices, n); d++) {
                String device = "d" + d;
                key.clear();
                StringSerializer.INSTANCE.serialize(device, key);
                key.writeByte(0);
                out.clear();
                out.writeLong(d);
                disk.put(
                        KeyGroupRangeAssignment.assignToKeyGroup(device, MAX_PARALLELISM),
                        key.getCopyOfBuffer(),
                        out.getCopyOfBuffer(),
                        T0);
            }
            plain = disk.compactedBytes();
        }
        double perTracked = (double) tracked / n;
        double perCount = (double) plain / Math.min(devices, n);
        System.out.printf(
                "state on disk (RocksDB, ZSTD, compacted): %.1f bytes per tracked message (its"
                        + " send, retry state and timer); plain count %.1f bytes per key%n",
                perTracked, perCount);
        results.put("stateBytesPerTrackedMessage", perTracked);
        results.put("plainStateBytesPerKey", perCount);
    }
}
