package io.pushline.cli;

import io.pushline.audience.SegmentFolder;
import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.NoEventTime;
import io.pushline.common.UsageException;
import io.pushline.dispatch.DispatchInputs;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchSettings;
import io.pushline.dispatch.DispatchStreams;
import io.pushline.dispatch.GateSettings;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.format.WireParser;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.udf.RulesException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.roaringbitmap.IntIterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline replay --rules R --trace T [--segments DIR] --out O}: the dispatch job's
 * registry, uid index and gate on a local Flink environment with RocksDB, in event time, over a
 * trace file (docs/dispatch-gate.md, last section). Output lines are sorted by the push's time and
 * position, then device and uid, so a run is reproducible byte for byte.
 */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = {
            "The gate over a trace file (docs/dispatch-gate.md): the dispatch job's registry, uid"
                    + " index and gate on local Flink with RocksDB, in event time; output sorted by"
                    + " the push's time and position, then device and uid; bad lines to stderr and"
                    + " OUT.rejected."
        })
final class ReplayCommand implements Callable<Integer> {
    @Option(names = "--rules", paramLabel = "FILE", description = "Default: no rules ({}).")
    Path rulesFile;

    @Option(names = "--trace", required = true, paramLabel = "FILE")
    Path trace;

    @Option(
            names = "--segments",
            paramLabel = "DIR",
            description = "Segment files for audience pushes.")
    Path segmentsDir;

    @Option(names = "--out", required = true, paramLabel = "FILE")
    Path out;

    @Override
    public Integer call() throws Exception {
        String rules = "{}";
        if (rulesFile != null) {
            rules = read(rulesFile);
            try {
                RulesParser.parse(rules);
            } catch (RulesException e) {
                throw new UsageException(rulesFile + ": " + e.getMessage());
            }
        }
        Path rejectedFile = Paths.get(out + ".rejected");

        List<ParsedRecord> records = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        AudienceEvaluator audiences = null;
        SegmentFolder segments = null;
        if (segmentsDir != null) {
            segments = SegmentFolder.load(segmentsDir, null);
            audiences = new AudienceEvaluator(segments.segments, segments.universe);
        }
        readTrace(trace, segments, audiences, records, rejected);
        records.sort(
                Comparator.comparingLong(ParsedRecord::timestamp)
                        .thenComparingLong(ReplayCommand::seq));

        List<Decision> decisions = new ArrayList<>();
        if (!records.isEmpty()) {
            decide(records, rules, decisions, rejected);
        }
        decisions.sort(
                Comparator.<Decision>comparingLong(d -> d.ts)
                        .thenComparingLong(d -> d.seq)
                        .thenComparing(
                                d -> d.deviceId, Comparator.nullsLast(Comparator.naturalOrder()))
                        .thenComparing(
                                d -> d.uid, Comparator.nullsLast(Comparator.naturalOrder())));
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (Decision d : decisions) {
                w.write(line(d));
                w.write('\n');
            }
        }
        Files.write(rejectedFile, rejected, StandardCharsets.UTF_8);
        System.err.printf(
                "replay: %d records, %d decisions to %s, %d rejected lines to %s%n",
                records.size(), decisions.size(), out, rejected.size(), rejectedFile);
        return 0;
    }

    private static void readTrace(
            Path trace,
            SegmentFolder segments,
            AudienceEvaluator audiences,
            List<ParsedRecord> records,
            List<String> rejected)
            throws IOException {
        WireParser parser = new WireParser(false);
        try (BufferedReader in = Files.newBufferedReader(trace, StandardCharsets.UTF_8)) {
            int n = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                n++;
                ParsedRecord r = parser.parse(line, "trace", String.valueOf(n), n);
                if (r.request != null && r.request.target.savedAudience != null) {
                    r =
                            ParsedRecord.of(
                                    DeadLetter.of(
                                            "trace",
                                            String.valueOf(n),
                                            "saved audience '"
                                                    + r.request.target.savedAudience
                                                    + "': a replay reads segments from a folder,"
                                                    + " and saved audiences are in HBase",
                                            line));
                } else if (r.request != null && r.request.target.audience != null) {
                    String reason = resolveAudience(r.request, segments, audiences);
                    if (reason != null) {
                        r =
                                ParsedRecord.of(
                                        DeadLetter.of("trace", String.valueOf(n), reason, line));
                    }
                }
                if (r.dead != null) {
                    reject(rejected, n, r.dead.reason, line);
                } else {
                    records.add(r);
                }
            }
        }
    }

    /**
     * Replaces an audience target by the uids its expression selects; returns the reason when the
     * expression is rejected (nothing is sent for it), null otherwise.
     */
    private static String resolveAudience(
            PushRequest p, SegmentFolder segments, AudienceEvaluator audiences) {
        if (audiences == null) {
            return "an audience target needs --segments DIR";
        }
        IdSet selected;
        try {
            selected = audiences.evaluate(p.target.audience);
        } catch (ExpressionException e) {
            return "audience expression rejected: " + e.getMessage();
        }
        List<String> uids = new ArrayList<>((int) selected.cardinality());
        for (IntIterator it = selected.ids(); it.hasNext(); ) {
            uids.add(segments.uid(it.next()));
        }
        p.target = Target.ofUids(uids);
        return null;
    }

    private static void decide(
            List<ParsedRecord> records,
            String rules,
            List<Decision> decisions,
            List<String> rejected)
            throws Exception {
        Path work = Files.createTempDirectory("pushline-replay");
        try {
            Configuration conf = LocalFlink.configuration(work);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(2);
            DataStream<ParsedRecord> input =
                    env.fromData(records, TypeInformation.of(ParsedRecord.class))
                            .assignTimestampsAndWatermarks(
                                    WatermarkStrategy.<ParsedRecord>forMonotonousTimestamps()
                                            .withTimestampAssigner((r, ts) -> r.timestamp()))
                            .name("Trace");
            DataStream<String> ruleUpdates =
                    env.fromData(List.of(rules), Types.STRING)
                            .assignTimestampsAndWatermarks(NoEventTime.strategy());
            // State TTL never matters in a replay of minutes; accept whatever the rules look back.
            Duration lookBack = RulesParser.parse(rules).lookBack();
            Duration ttl =
                    lookBack.compareTo(Duration.ofDays(8)) > 0 ? lookBack : Duration.ofDays(8);
            DispatchStreams out =
                    DispatchJob.build(
                            DispatchInputs.of(input, ruleUpdates),
                            DispatchSettings.gateOnly(new GateSettings(rules, ttl), 128));
            CloseableIterator<Decision> decided = out.decisions().collectAsync();
            CloseableIterator<DeadLetter> dead = out.deadLetters().collectAsync();
            env.execute("pushline-replay");
            decided.forEachRemaining(decisions::add);
            while (dead.hasNext()) {
                DeadLetter d = dead.next();
                int line = d.position == null ? 0 : Integer.parseInt(d.position);
                reject(rejected, line, d.reason, d.raw);
            }
            decided.close();
            dead.close();
        } finally {
            LocalStack.deleteRecursively(work);
        }
    }

    /** A rejected input line: to standard error, and a JSON line for the {@code .rejected} file. */
    static void reject(List<String> rejected, int line, String reason, String raw) {
        System.err.println("line " + line + ": " + reason);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("line", line);
        r.put("reason", reason);
        r.put("raw", raw);
        rejected.add(Json.write(r));
    }

    private static long seq(ParsedRecord r) {
        return r.event != null ? r.event.seq : r.request.seq;
    }

    /** Exactly the contract's line: msgId, uid, deviceId, vendor, decision, reason. */
    static String line(Decision d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("msgId", d.msgId);
        m.put("uid", d.uid);
        m.put("deviceId", d.deviceId);
        m.put("vendor", d.vendor);
        m.put("decision", d.decision);
        m.put("reason", d.reason);
        return Json.write(m);
    }

    private static String read(Path p) throws IOException {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("cannot read " + p + ": " + e.getMessage());
        }
    }
}
