package io.pushline.cli;

import io.pushline.common.Cli;
import io.pushline.format.LongconnParser;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.longconn.AckRules;
import io.pushline.longconn.Tracking;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnEvent;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ./pushline longconn replay --rules R --trace T --out O}: the streaming job's ack tracker
 * (keyed by deviceId) on a local Flink environment with RocksDB, in event time, over a trace
 * (jobs/longconn/README.md). Actions come out in the order they happened: by time; at equal times,
 * those an input line caused (in file order) before retries, and retries by msgId, then deviceId.
 */
@Command(
        name = "longconn",
        mixinStandardHelpOptions = true,
        description = "The long connection's ack tracker: replay a trace.",
        subcommands = LongconnCommand.Replay.class)
final class LongconnCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.missingSubcommand(spec);
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = {
                "Long-connection acks, retries and fallbacks over a trace file (docs/longconn.md):"
                        + " the ack tracker on local Flink with RocksDB, in event time; bad lines to"
                        + " stderr and OUT.rejected."
            })
    static final class Replay implements Callable<Integer> {
        @Mixin ReplayFiles options;

        @Override
        public Integer call() throws Exception {
            return replay(options.checked());
        }
    }

    /** State is never expired during a replay: event time and wall clock are unrelated there. */
    private static final Duration NO_TTL = Duration.ofDays(365_000);

    static int replay(ReplayFiles files) throws Exception {
        AckRules rules = files.rules(AckRules::parse, AckRules.defaults());
        Path out = files.out();
        Path rejectedFile = files.rejected();

        List<LongconnEvent> events = new ArrayList<>();
        List<String> badLines = new ArrayList<>();
        files.eachLine(
                (line, n) -> {
                    LongconnParser.Result p = LongconnParser.parse(line, n);
                    if (p.event() == null) {
                        ReplayCommand.reject(badLines, n, p.reason(), line);
                    } else {
                        events.add(p.event());
                    }
                });
        events.sort(
                Comparator.<LongconnEvent>comparingLong(e -> e.ts).thenComparingLong(e -> e.seq));
        List<LongconnAction> actions = new ArrayList<>();
        if (!events.isEmpty()) {
            replay(events, rules, actions, badLines);
        }
        actions.sort(Tracking.ORDER);
        Map<String, Integer> counts = new LinkedHashMap<>();
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (LongconnAction x : actions) {
                w.write(Json.write(x));
                w.write('\n');
                counts.merge(x.action, 1, Integer::sum);
            }
        }
        Files.write(rejectedFile, badLines, StandardCharsets.UTF_8);
        System.err.printf(
                "longconn replay: %d events, %d actions %s to %s, %d bad lines to %s%n",
                events.size(), actions.size(), counts, out, badLines.size(), rejectedFile);
        return 0;
    }

    private static void replay(
            List<LongconnEvent> events,
            AckRules rules,
            List<LongconnAction> actions,
            List<String> badLines)
            throws Exception {
        Path work = Files.createTempDirectory("pushline-longconn");
        try {
            Configuration conf = LocalFlink.configuration(work);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(2);
            DataStream<LongconnEvent> input =
                    env.fromData(events, TypeInformation.of(LongconnEvent.class))
                            .assignTimestampsAndWatermarks(
                                    WatermarkStrategy.<LongconnEvent>forGenerator(
                                                    c -> new SortedTrace())
                                            .withTimestampAssigner((e, ts) -> e.ts))
                            .name("Trace");
            Tracking.Streams s = Tracking.build(input, rules, NO_TTL, 128);
            CloseableIterator<LongconnAction> out = s.actions().collectAsync();
            CloseableIterator<DeadLetter> dead = s.deadLetters().collectAsync();
            env.execute("pushline-longconn-replay");
            while (out.hasNext()) {
                actions.add(out.next());
            }
            while (dead.hasNext()) {
                DeadLetter d = dead.next();
                ReplayCommand.reject(badLines, 0, d.reason, d.position);
            }
            out.close();
            dead.close();
        } finally {
            LocalStack.deleteRecursively(work);
        }
    }

    /**
     * The trace is sorted: the watermark is just below the latest time seen (and never wraps around
     * for a time of {@code Long.MIN_VALUE}).
     */
    private static final class SortedTrace implements WatermarkGenerator<LongconnEvent> {
        private long max = Long.MIN_VALUE;

        @Override
        public void onEvent(LongconnEvent e, long ts, WatermarkOutput out) {
            max = Math.max(max, e.ts);
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput out) {
            if (max > Long.MIN_VALUE) {
                out.emitWatermark(new Watermark(max - 1));
            }
        }
    }
}
