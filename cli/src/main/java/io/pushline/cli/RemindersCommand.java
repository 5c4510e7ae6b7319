package io.pushline.cli;

import io.pushline.common.Cli;
import io.pushline.format.ReminderParser;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.reminders.ReminderRules;
import io.pushline.reminders.Reminders;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
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
 * {@code ./pushline reminders replay --rules R --trace T --out O}: the reminders operators (the
 * tasks keyed by taskId, the one pacer) on a local Flink environment with RocksDB, in event time,
 * over a trace (reminders/README.md). The uid dictionary is the trace's own: ids in order of first
 * appearance. Output lines are sorted by time, task and uid, so a run is reproducible.
 */
@Command(
        name = "reminders",
        mixinStandardHelpOptions = true,
        description = "Scheduled reminders: replay a trace.",
        subcommands = RemindersCommand.Replay.class)
final class RemindersCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.missingSubcommand(spec);
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = {
                "Scheduled reminders over a trace file (docs/reminders.md): the reminders operators"
                        + " on local Flink with RocksDB, in event time; bad lines to stderr and"
                        + " OUT.rejected."
            })
    static final class Replay implements Callable<Integer> {
        @Mixin ReplayFiles options;

        @Override
        public Integer call() throws Exception {
            return replay(options.checked());
        }
    }

    static int replay(ReplayFiles files) throws Exception {
        ReminderRules rules = files.rules(ReminderRules::parse, ReminderRules.defaults());
        Path out = files.out();
        Path rejectedFile = files.rejected();

        List<ReminderEvent> events = new ArrayList<>();
        List<String> badLines = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        List<String> uids = new ArrayList<>();
        files.eachLine(
                (line, n) -> {
                    ReminderParser.Result p = ReminderParser.parse(line, n);
                    if (p.event() == null) {
                        ReplayCommand.reject(badLines, n, p.reason(), line);
                        return;
                    }
                    ReminderEvent e = p.event();
                    if (e.uid != null) {
                        e.uidId =
                                ids.computeIfAbsent(
                                        e.uid,
                                        u -> {
                                            uids.add(u);
                                            return uids.size() - 1;
                                        });
                    }
                    events.add(e);
                });
        events.sort(
                Comparator.<ReminderEvent>comparingLong(e -> e.ts).thenComparingLong(e -> e.seq));

        List<Object[]> lines = new ArrayList<>();
        if (!events.isEmpty()) {
            replay(events, rules, uids, lines, badLines);
        }
        lines.sort(
                Comparator.<Object[]>comparingLong(l -> (Long) l[0])
                        .thenComparing(l -> (String) l[1])
                        .thenComparing(
                                l -> (String) l[2],
                                Comparator.nullsFirst(Comparator.naturalOrder())));
        long pushes = 0;
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (Object[] l : lines) {
                w.write((String) l[3]);
                w.write('\n');
                if (ReminderLine.PUSH.equals(l[4])) {
                    pushes++;
                }
            }
        }
        Files.write(rejectedFile, badLines, StandardCharsets.UTF_8);
        System.err.printf(
                "reminders replay: %d events, %d lines (%d pushes) to %s, %d bad lines to %s%n",
                events.size(), lines.size(), pushes, out, badLines.size(), rejectedFile);
        return 0;
    }

    /** Runs the operators; adds output lines as (time, taskId, uid, json, action). */
    private static void replay(
            List<ReminderEvent> events,
            ReminderRules rules,
            List<String> uids,
            List<Object[]> lines,
            List<String> badLines)
            throws Exception {
        Path work = Files.createTempDirectory("pushline-reminders");
        try {
            Configuration conf = LocalFlink.configuration(work);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(2);
            DataStream<ReminderEvent> input =
                    env.fromData(events, TypeInformation.of(ReminderEvent.class))
                            .assignTimestampsAndWatermarks(
                                    WatermarkStrategy.<ReminderEvent>forMonotonousTimestamps()
                                            .withTimestampAssigner((e, ts) -> e.ts))
                            .name("Trace");
            Reminders.Streams s = Reminders.build(input, rules, false, 128);
            CloseableIterator<ReminderChunk> chunks = s.chunks().collectAsync();
            CloseableIterator<ReminderLine> rejected = s.rejected().collectAsync();
            CloseableIterator<DeadLetter> dead = s.deadLetters().collectAsync();
            env.execute("pushline-reminders-replay");
            while (chunks.hasNext()) {
                ReminderChunk c = chunks.next();
                for (int id : c.ids) {
                    String uid = uids.get(id);
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("taskId", c.taskId);
                    m.put("uid", uid);
                    m.put("action", c.action);
                    m.put("at", c.at);
                    lines.add(new Object[] {c.at, c.taskId, uid, Json.write(m), c.action});
                }
            }
            while (rejected.hasNext()) {
                ReminderLine r = rejected.next();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("ts", r.ts);
                m.put("taskId", r.taskId);
                m.put("uid", r.uid);
                m.put("action", ReminderLine.REJECTED);
                m.put("reason", r.reason);
                lines.add(new Object[] {r.ts, r.taskId, r.uid, Json.write(m), r.action});
            }
            while (dead.hasNext()) {
                DeadLetter d = dead.next();
                int line = 0;
                try {
                    line = Integer.parseInt(d.position);
                } catch (NumberFormatException e) {
                    // not a line number: 0
                }
                ReplayCommand.reject(badLines, line, d.reason, d.raw);
            }
            chunks.close();
            rejected.close();
            dead.close();
        } finally {
            LocalStack.deleteRecursively(work);
        }
    }
}
