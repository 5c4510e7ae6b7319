package io.pushline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.cluster.FlinkRest;
import io.pushline.common.NoEventTime;
import io.pushline.dispatch.gate.ExampleRules;
import io.pushline.dispatch.gate.GateEngine;
import io.pushline.dispatch.gate.GateOperator;
import io.pushline.dispatch.gate.Rules;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.local.LocalStack;
import io.pushline.schema.Decision;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.gate.GateState;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench gate [--devices N] [--events M]}: the gate operator against a plain keyed
 * count over the same generated pushes, one job after the other on one MiniCluster (RocksDB,
 * parallelism 2); then the serialized size of the gate's state per (device, msgType).
 */
@Command(
        name = "gate",
        mixinStandardHelpOptions = true,
        description = "The gate vs a plain keyed count on one MiniCluster, state bytes.")
final class GateBench extends Bench {
    static final String[] TYPES = {
        "news", "album_update", "live_start", "promo", "security_notice"
    };
    static final long T0 = 1_767_225_600_000L;
    static final int MAX_PARALLELISM = 720;

    /** {@code ./pushline bench gate ARGS...} (the arguments after the name). */
    @Option(
            names = "--devices",
            paramLabel = "N",
            description = "Devices (default ${DEFAULT-VALUE}).")
    int devices = 1_000_000;

    @Option(
            names = "--events",
            paramLabel = "M",
            description = "Timed events (default ${DEFAULT-VALUE}).")
    long events = 5_000_000;

    @Option(
            names = "--warmup",
            paramLabel = "W",
            description = "Warm-up events (default ${DEFAULT-VALUE}).")
    long warmup = 1_000_000;

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        String rules = ExampleRules.WITH_GENERATED_DEVICES;
        System.out.printf(
                "bench gate: %,d pushes over %,d devices, the contract's example rules,"
                        + " RocksDB, parallelism 2, checkpoints every 10 s; both jobs warmed up on"
                        + " %,d pushes first; %d round(s) of both, medians reported%n",
                events, devices, warmup, repeat);
        Path work = Files.createTempDirectory("pushline-bench");
        try {
            Configuration conf = BenchCluster.configuration(work);
            // Local runs checkpoint every second to show exactly-once output quickly; the bench
            // measures steady throughput, closer to production's 30 s, and still sees the state
            // grow to its end size within the gate's run.
            conf.setString("execution.checkpointing.interval", "10 s");
            MiniClusterConfiguration mc = BenchCluster.twoSlots(conf);
            List<Run> plains = new java.util.ArrayList<>();
            List<Run> gates = new java.util.ArrayList<>();
            long checkpointBytes;
            Run oneCore;
            try (MiniCluster cluster = new MiniCluster(mc)) {
                cluster.start();
                URI rest = cluster.getRestAddress().get();
                final int n = devices;
                final long m = events;
                if (warmup > 0) {
                    // The first job would otherwise also pay for compiling the code both share
                    // (source, serializers, network stack).
                    final long w = warmup;
                    StreamExecutionEnvironment e = env(rest, conf);
                    plainJob(e, n, w);
                    e.execute("bench-warm-up-plain");
                    e = env(rest, conf);
                    gateJob(e, n, w, rules, false);
                    e.execute("bench-warm-up-gate");
                }
                // The machine's speed drifts over minutes: rounds of one run each, side by side,
                // and the median of each figure.
                for (int r = 1; r <= repeat; r++) {
                    if (repeat > 1) {
                        System.out.printf("round %d of %d%n", r, repeat);
                    }
                    plains.add(
                            timed(
                                    "plain keyed count",
                                    "Count",
                                    m,
                                    env(rest, conf),
                                    e -> plainJob(e, n, m)));
                    gates.add(
                            timed(
                                    "gate",
                                    "Gate",
                                    m,
                                    env(rest, conf),
                                    e -> gateJob(e, n, m, rules, false)));
                }
                checkpointBytes = largestCheckpoint(rest, gates.get(gates.size() - 1).jobId);
                // "Per core" taken literally: one gate subtask on a core of its own, its source on
                // the other, doing what one of the two subtasks above does: half the devices
                // (so its RocksDB holds as much as each of theirs) and half the pushes.
                System.out.printf(
                        "one core: the gate at parallelism 1 over half the devices and pushes (%,d"
                                + " and %,d), one subtask's share above%n",
                        n / 2, m / 2);
                StreamExecutionEnvironment single = env(rest, conf);
                single.setParallelism(1);
                oneCore =
                        timed(
                                "gate on one core",
                                "Gate",
                                m / 2,
                                single,
                                e -> gateJob(e, n / 2, m / 2, rules, true));
            }
            double plainRate = median(plains, Run::rate);
            double gateRate = median(gates, Run::rate);
            double[] ratios = new double[repeat];
            for (int r = 0; r < repeat; r++) {
                ratios[r] = gates.get(r).rate / plains.get(r).rate;
            }
            if (repeat > 1) {
                System.out.printf(
                        "median of %d rounds: plain %,.0f events/s (%,.0f per CPU-second), gate"
                                + " %,.0f events/s (%,.0f per CPU-second); ratios %s%n",
                        repeat,
                        plainRate,
                        median(plains, Run::perCore),
                        gateRate,
                        median(gates, Run::perCore),
                        java.util.Arrays.stream(ratios)
                                .mapToObj(x -> String.format("%.2f", x))
                                .toList());
            }
            long pairs =
                    stateSize(
                            devices,
                            events,
                            rules,
                            work,
                            StateOnDisk.compression(
                                    conf.toMap()
                                            .get("state.backend.rocksdb.compression.per.level")),
                            Boolean.parseBoolean(
                                    conf.toMap().get("state.backend.rocksdb.use-bloom-filter")));
            System.out.printf(
                    "gate checkpoint: largest full state %,d bytes on disk (RocksDB SST files of an incremental checkpoint, incl."
                            + " buffered records, timers and versions not yet compacted) = %.1f bytes per"
                            + " (device, msgType)%n",
                    checkpointBytes, (double) checkpointBytes / pairs);
            redisPeer(devices, events, rules, gateRate);
            System.out.printf(
                    "gate on one core: %,.0f events/s with one gate subtask and one subtask's share"
                            + " of the work (its source on the other core); %,.0f events per"
                            + " CPU-second spent for it%n",
                    oneCore.rate, oneCore.perCore);
            BenchResults results = results();
            for (int r = 0; r < repeat; r++) {
                results.round(
                        BenchResults.figures(
                                "plainEventsPerSecond",
                                plains.get(r).rate,
                                "plainEventsPerCpuSecond",
                                plains.get(r).perCore,
                                "gateEventsPerSecond",
                                gates.get(r).rate,
                                "gateEventsPerCpuSecond",
                                gates.get(r).perCore,
                                "gatePlainRatio",
                                ratios[r]));
            }
            results.put("devices", devices);
            results.put("events", events);
            results.put("oneCoreEventsPerSecond", oneCore.rate);
            results.put("oneCoreEventsPerCpuSecond", oneCore.perCore);
            results.put("checkpointBytesPerPair", (double) checkpointBytes / pairs);
            results.write();
            System.out.printf(
                    "gate/plain ratio %s%n", results.medianAndSpread("gatePlainRatio", "%.2f"));
        } finally {
            LocalStack.deleteRecursively(work);
        }
        return 0;
    }

    interface Wiring {
        void wire(StreamExecutionEnvironment env) throws Exception;
    }

    private static StreamExecutionEnvironment env(URI rest, Configuration conf) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment(
                        rest.getHost(), rest.getPort(), conf);
        env.setParallelism(2);
        return env;
    }

    /** perCore: events per CPU-second spent for the keyed operator, NaN where not measured. */
    record Run(double rate, double perCore, String jobId) {}

    static double median(List<Run> runs, java.util.function.Function<Run, Double> figure) {
        double[] v = new double[runs.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = figure.apply(runs.get(i));
        }
        return BenchResults.median(v);
    }

    private static Run timed(
            String name,
            String operator,
            long events,
            StreamExecutionEnvironment env,
            Wiring wiring)
            throws Exception {
        wiring.wire(env);
        long t0 = System.nanoTime();
        org.apache.flink.api.common.JobExecutionResult result;
        TaskWallClock.reset();
        CpuMeter cpu = CpuMeter.start(operator);
        try {
            result = env.execute("bench-" + name.replace(' ', '-'));
        } finally {
            cpu.close();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        // From the tasks' start to the last record handled (TaskWallClock): the job's own run time
        // also holds the wait for a final checkpoint, and the client learns of the end by polling.
        double ran = result.getNetRuntime() / 1e3;
        double secs = TaskWallClock.seconds();
        if (Double.isNaN(secs)) {
            secs = ran;
        }
        double rate = events / secs;
        System.out.printf(
                "%-18s %,12.0f events/s  (%,d events in %.1f s from its tasks' start to the last"
                        + " record handled; the job ran %.1f s with the wait for its final"
                        + " checkpoint, %.1f s with submission and polling)%n",
                name, rate, events, secs, ran, wall);
        if (CpuMeter.available()) {
            System.out.printf(
                    "  per core: %,.0f events per CPU-second spent for %s (%.1f s: %d task threads"
                            + " %.1f, RocksDB background %.1f, async snapshots %.1f)%n",
                    events / cpu.operatorSecs(),
                    operator,
                    cpu.operatorSecs(),
                    cpu.threads(CpuMeter.Group.OPERATOR),
                    cpu.secs(CpuMeter.Group.OPERATOR),
                    cpu.secs(CpuMeter.Group.ROCKSDB),
                    cpu.secs(CpuMeter.Group.SNAPSHOTS));
        }
        System.out.printf(
                "  whole process: %,.0f events per CPU-second (%.2f cores busy on average from"
                        + " submission to the result, incl. the generating source and job start)%s%n",
                events / cpu.processSecs(),
                cpu.processCores(),
                cpu.stealShare() < 0
                        ? ""
                        : String.format("; steal %.1f%%", 100 * cpu.stealShare()));
        double perCore = CpuMeter.available() ? events / cpu.operatorSecs() : Double.NaN;
        return new Run(rate, perCore, result.getJobID().toString());
    }

    /**
     * The full state size of the job's largest completed checkpoint, from the REST API: the last
     * one, taken after the input ended, holds nothing of the finished tasks.
     */
    private static long largestCheckpoint(URI rest, String jobId) throws Exception {
        long max = 0;
        for (JsonNode c : FlinkRest.at(rest).checkpoints(jobId).path("history")) {
            if ("COMPLETED".equals(c.path("status").asText())) {
                max = Math.max(max, c.path("state_size").asLong());
            }
        }
        return max;
    }

    private static DataStream<DevicePush> pushes(
            StreamExecutionEnvironment env, long events, int devices, boolean oneReader) {
        return env.fromSequence(0, events - 1)
                .map(new GatePushes(devices, events, oneReader))
                .returns(TypeInformation.of(DevicePush.class))
                .assignTimestampsAndWatermarks(
                        WatermarkStrategy.<DevicePush>forMonotonousTimestamps()
                                .withTimestampAssigner((d, ts) -> d.request.ts));
    }

    private static void plainJob(StreamExecutionEnvironment env, int devices, long events) {
        pushes(env, events, devices, false)
                .keyBy(d -> d.device.deviceId)
                .process(new CountPerKey<DevicePush>())
                .returns(Types.LONG)
                .name("Count")
                .sinkTo(new TaskWallClock.EndSink<>());
    }

    private static void gateJob(
            StreamExecutionEnvironment env,
            int devices,
            long events,
            String rules,
            boolean oneReader) {
        DataStream<String> ruleStream =
                env.fromData(List.of(rules), Types.STRING)
                        .assignTimestampsAndWatermarks(NoEventTime.strategy());
        pushes(env, events, devices, oneReader)
                .keyBy(d -> d.device.deviceId)
                .connect(ruleStream.broadcast())
                .transform(
                        "Gate",
                        TypeInformation.of(Decision.class),
                        new GateOperator(rules, Duration.ofDays(8)))
                .sinkTo(new TaskWallClock.EndSink<>());
    }

    /**
     * The seeds' Redis design over the first million pushes (in event-time order), against a
     * private redis-server; its decisions are compared with the gate engine's on the same pushes.
     */
    private static void redisPeer(int devices, long events, String rulesText, double gateRate)
            throws Exception {
        Rules rules = RulesParser.parse(rulesText);
        int n = (int) Math.min(events, 1_000_000L);
        GatePushes gen = new GatePushes(devices, events);
        List<DevicePush> pushes = new java.util.ArrayList<>(n);
        Map<String, Long> expected = new java.util.TreeMap<>();
        Map<Integer, GateState> states = new java.util.HashMap<>();
        for (long j = 0; j < n; j++) {
            long i = gen.inTimeOrder(j);
            DevicePush d = gen.push(i);
            pushes.add(d);
            GateEngine.Outcome o =
                    GateEngine.decide(
                            rules,
                            states.computeIfAbsent(
                                    GatePushes.device(i, devices), k -> new GateState()),
                            d.request,
                            d.device,
                            d.request.ts);
            expected.merge(o.pass() ? "PASS" : o.reason().wireName(), 1L, Long::sum);
        }
        try (RedisGate redis = RedisGate.start()) {
            if (redis == null) {
                System.out.println(
                        "redis design: skipped, no redis-server on the PATH (bench/redis/install.sh)");
                return;
            }
            long t0 = System.nanoTime();
            Map<String, Long> actual = redis.run(rules, pushes);
            double secs = (System.nanoTime() - t0) / 1e9;
            double rate = n / secs;
            System.out.printf(
                    "%-18s %,12.0f events/s  (%,d events in %.1f s, one client, pipelined"
                            + " batches of 1,000)%n",
                    "redis design", rate, n, secs);
            System.out.printf(
                    "redis decisions %s the gate's on those pushes: %s%n",
                    actual.equals(expected) ? "equal" : "DIFFER from",
                    actual.equals(expected) ? actual : actual + " vs gate " + expected);
            System.out.printf("gate/redis ratio %.2f%n", gateRate / rate);
        }
    }

    /**
     * Runs the gate's engine over the first {@code events} pushes in memory and measures the gate's
     * state as Flink serializes it into RocksDB (value bytes plus the deviceId key).
     */
    private static long stateSize(
            int devices,
            long events,
            String rulesText,
            Path work,
            org.rocksdb.CompressionType compression,
            boolean bloomFilter)
            throws Exception {
        Rules rules = RulesParser.parse(rulesText);
        GatePushes gen = new GatePushes(devices, events);
        GateState[] states = new GateState[devices];
        Set<Long> pairs = new HashSet<>();
        for (long j = 0; j < events; j++) {
            long i = gen.inTimeOrder(j);
            DevicePush d = gen.push(i);
            int dev = GatePushes.device(i, devices);
            if (states[dev] == null) {
                states[dev] = new GateState();
            }
            GateEngine.decide(rules, states[dev], d.request, d.device, d.request.ts);
            pairs.add((long) dev * TYPES.length + GatePushes.type(i));
        }
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        TypeSerializer<GateState> s = TypeInformation.of(GateState.class).createSerializer(config);
        DataOutputSerializer out = new DataOutputSerializer(256);
        DataOutputSerializer key = new DataOutputSerializer(32);
        long bytes = 0;
        long kept = 0;
        long onDisk;
        try (StateOnDisk disk =
                new StateOnDisk(work.resolve("state-on-disk"), compression, bloomFilter)) {
            for (int dev = 0; dev < devices; dev++) {
                if (states[dev] == null || states[dev].isEmpty()) {
                    continue;
                }
                out.clear();
                s.serialize(states[dev], out);
                key.clear();
                StringSerializer.INSTANCE.serialize(GatePushes.deviceId(dev), key);
                bytes += out.length() + key.length() + 2;
                kept++;
                disk.put(
                        KeyGroupRangeAssignment.assignToKeyGroup(
                                GatePushes.deviceId(dev), MAX_PARALLELISM),
                        key.getCopyOfBuffer(),
                        out.getCopyOfBuffer(),
                        T0);
            }
            onDisk = disk.compactedBytes();
        }
        System.out.printf(
                "gate state: %,d devices with state, %,d bytes serialized (value + key),"
                        + " %.1f bytes per (device, msgType) over %,d pairs seen in %,d pushes%n",
                kept, bytes, (double) bytes / pairs.size(), pairs.size(), events);
        System.out.printf(
                "gate state on disk: %,d bytes after a full RocksDB compaction (%s%s, with TTL"
                        + " timestamps) = %.1f bytes per (device, msgType)%n",
                onDisk,
                compression,
                bloomFilter ? ", bloom filters" : "",
                (double) onDisk / pairs.size());
        return pairs.size();
    }
}
