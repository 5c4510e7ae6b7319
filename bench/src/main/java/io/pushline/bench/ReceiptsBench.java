package io.pushline.bench;

import io.pushline.local.LocalStack;
import io.pushline.receipts.ReceiptsJob;
import io.pushline.receipts.ReceiptsOptions;
import io.pushline.receipts.ReceiptsSinks;
import io.pushline.schema.Vendor;
import io.pushline.schema.receipts.ReceiptEvent;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench receipts [--events N] [--devices D] [--repeat R]}: the receipts job's
 * operators (lifecycle, minute and day windows; sinks discard) against a plain keyed count over the
 * same generated decisions and receipts, one after the other on one MiniCluster (RocksDB,
 * parallelism 2, after a warm-up run of each).
 */
@Command(
        name = "receipts",
        mixinStandardHelpOptions = true,
        description = "The receipts job's operators vs a plain keyed count.")
final class ReceiptsBench extends Bench {
    @Option(
            names = "--events",
            paramLabel = "N",
            description = "Events (default ${DEFAULT-VALUE}).")
    long events = 5_000_000;

    @Option(
            names = "--devices",
            paramLabel = "D",
            description = "Devices (default ${DEFAULT-VALUE}).")
    int devices = 1_000_000;

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        System.out.printf(
                "bench receipts: %,d events (decision, sent, delivered or failed or token_invalid,"
                        + " clicked or a duplicate) for %,d (message, device) pairs over %,d"
                        + " devices; RocksDB, parallelism 2; %d round(s) of both, medians"
                        + " reported%n",
                events, events / 4, devices, repeat);
        Path work = Files.createTempDirectory("pushline-bench-receipts");
        try {
            Configuration conf = BenchCluster.configuration(work);
            MiniClusterConfiguration mc = BenchCluster.twoSlots(conf);
            try (MiniCluster cluster = new MiniCluster(mc)) {
                cluster.start();
                URI rest = cluster.getRestAddress().get();
                long warm = Math.min(events, 500_000);
                timed(rest, conf, "warm-up plain", warm, devices, false, true);
                timed(rest, conf, "warm-up job", warm, devices, true, true);
                BenchResults results = results();
                for (int r = 1; r <= repeat; r++) {
                    if (repeat > 1) {
                        System.out.printf("round %d of %d%n", r, repeat);
                    }
                    double plain =
                            timed(rest, conf, "plain keyed count", events, devices, false, false);
                    double job = timed(rest, conf, "receipts job", events, devices, true, false);
                    results.round(
                            BenchResults.figures(
                                    "plainEventsPerSecond",
                                    plain,
                                    "receiptsEventsPerSecond",
                                    job,
                                    "receiptsPlainRatio",
                                    job / plain));
                }
                results.put("events", events);
                results.put("devices", devices);
                results.write();
                System.out.printf(
                        "receipts/plain ratio %s%n",
                        results.medianAndSpread("receiptsPlainRatio", "%.2f"));
            }
        } finally {
            LocalStack.deleteRecursively(work);
        }
        return 0;
    }

    private static double timed(
            URI rest,
            Configuration conf,
            String name,
            long events,
            int devices,
            boolean job,
            boolean quiet)
            throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment(
                        rest.getHost(), rest.getPort(), conf);
        env.setParallelism(2);
        DataStream<ReceiptEvent> input =
                env.fromSequence(0, events - 1)
                        .map(new Generate(devices))
                        .returns(TypeInformation.of(ReceiptEvent.class))
                        .assignTimestampsAndWatermarks(
                                WatermarkStrategy.<ReceiptEvent>forMonotonousTimestamps()
                                        .withTimestampAssigner((e, t) -> e.ts));
        if (job) {
            ReceiptsJob.sinkTo(
                    ReceiptsJob.build(
                            input,
                            ReceiptsJob.Settings.from(
                                    Configuration.fromMap(
                                            Map.of(
                                                    ReceiptsOptions.ALLOWED_LATENESS.key(),
                                                    "1 h")))),
                    new ReceiptsSinks(
                            new DiscardingSink<>(),
                            new DiscardingSink<>(),
                            new DiscardingSink<>(),
                            new DiscardingSink<>(),
                            new DiscardingSink<>(),
                            new DiscardingSink<>()));
        } else {
            input.keyBy(ReceiptEvent::lifecycleKey)
                    .process(new CountPerKey<ReceiptEvent>())
                    .returns(Types.LONG)
                    .sinkTo(new DiscardingSink<>());
        }
        long t0 = System.nanoTime();
        env.execute("bench-receipts-" + name.replace(' ', '-'));
        double secs = (System.nanoTime() - t0) / 1e9;
        double rate = events / secs;
        if (!quiet) {
            System.out.printf(
                    "%-18s %,12.0f receipts/s  (%,d events in %.1f s)%n", name, rate, events, secs);
        }
        return rate;
    }

    /**
     * Event i: step i%4 of pair i/4 (message pair/devices, device pair%devices); event time grows
     * with i, so every subtask's share is in order.
     */
    static final class Generate implements MapFunction<Long, ReceiptEvent> {
        private static final long serialVersionUID = 1L;
        private static final long T0 = 1_767_225_600_000L;
        private static final String[] TYPES = {"news", "promo", "live_start", "album_update"};
        private final int devices;

        Generate(int devices) {
            this.devices = devices;
        }

        @Override
        public ReceiptEvent map(Long i) {
            long pair = i / 4;
            int step = (int) (i % 4);
            long msg = pair / devices;
            int device = (int) (pair % devices);
            long h = mix(pair);
            Vendor vendor = Vendor.values()[(int) ((device * 31L) % Vendor.values().length)];
            ReceiptEvent e = new ReceiptEvent();
            e.msgId = "m" + msg;
            e.deviceId = "d" + device;
            e.vendor = vendor.wireName();
            e.ts = T0 + i * 20L; // 5M events span a day
            boolean drop = (h & 31) == 0;
            if (step == 0) {
                e.kind = ReceiptEvent.DECISION;
                e.uid = "u" + device;
                e.msgType = TYPES[(int) (msg % TYPES.length)];
                e.decision = drop ? "DROP" : "PASS";
                e.reason = drop ? "quiet_hours" : null;
                e.code = drop ? 13 : 0;
                return e;
            }
            if (step == 1) {
                e.kind = ReceiptEvent.SENT;
            } else if (step == 2) {
                long u = (h >>> 8) % 100;
                e.kind =
                        u < 2
                                ? ReceiptEvent.FAILED
                                : u < 3 ? ReceiptEvent.TOKEN_INVALID : ReceiptEvent.DELIVERED;
                e.reason = e.kind == ReceiptEvent.FAILED ? "QUOTA_EXCEEDED" : null;
            } else {
                // a click, or a gateway's repeated delivery report
                e.kind = ((h >>> 16) % 10) == 0 ? ReceiptEvent.CLICKED : ReceiptEvent.DELIVERED;
            }
            return e;
        }

        private static long mix(long x) {
            x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
            x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return x ^ (x >>> 33);
        }
    }
}
