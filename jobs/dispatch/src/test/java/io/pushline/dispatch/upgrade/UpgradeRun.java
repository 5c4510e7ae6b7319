package io.pushline.dispatch.upgrade;

import io.pushline.common.NoEventTime;
import io.pushline.dispatch.DispatchInputs;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchSettings;
import io.pushline.dispatch.DispatchSinks;
import io.pushline.dispatch.DispatchStreams;
import io.pushline.dispatch.GateSettings;
import io.pushline.format.WireParser;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.testkit.Checkpoints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The dispatch job as the upgrade test runs it: the trace files of a directory (read as they
 * appear) instead of Kafka, collecting sinks instead of the vendor topics, the gate of {@link
 * UpgradeTrace#RULES}; every stateful operator the job has, with its production uid.
 */
final class UpgradeRun {
    // TTL is processing time: the committed savepoint was written on one day, and with a week its
    // state would be invisible (never returned expired) a week later. Ten years keeps it readable.
    static final Duration STATE_TTL = Duration.ofDays(3650);

    private UpgradeRun() {}

    /**
     * Starts the job on {@code input}, restored from {@code savepoint} when not null; its decisions
     * go to {@link CollectingSink} {@code name + "/decisions"}.
     */
    static JobClient start(Configuration flink, Path input, String savepoint, String name)
            throws Exception {
        Configuration conf = new Configuration(flink);
        if (savepoint != null) {
            conf.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        FileSource<String> files =
                FileSource.forRecordStreamFormat(
                                new TextLineInputFormat(),
                                org.apache.flink.core.fs.Path.fromLocalFile(input.toFile()))
                        .monitorContinuously(Duration.ofMillis(200))
                        .build();
        // One reader, so the file's order is the order the job sees.
        DataStream<ParsedRecord> trace =
                env.fromSource(files, WatermarkStrategy.noWatermarks(), "Trace files")
                        .uid("source-trace")
                        .setParallelism(1)
                        .map(new Parse())
                        .uid("parse-trace")
                        .name("Parse trace")
                        .setParallelism(1)
                        .assignTimestampsAndWatermarks(
                                WatermarkStrategy.<ParsedRecord>forMonotonousTimestamps()
                                        .withTimestampAssigner((r, ts) -> r.timestamp()))
                        .uid("trace-watermarks")
                        .name("Trace time")
                        .setParallelism(1);
        // As in production a rules topic that stays open (the gate starts with the rules below):
        // a finished source makes a stop-with-savepoint racy ("tasks not ready").
        Path rulesDir =
                Files.createDirectories(input.resolveSibling(input.getFileName() + "-rules"));
        DataStream<String> rules =
                env.fromSource(
                                FileSource.forRecordStreamFormat(
                                                new TextLineInputFormat(),
                                                org.apache.flink.core.fs.Path.fromLocalFile(
                                                        rulesDir.toFile()))
                                        .monitorContinuously(Duration.ofSeconds(1))
                                        .build(),
                                NoEventTime.strategy(),
                                "Rules updates")
                        .uid("source-rules")
                        .setParallelism(1);
        DispatchStreams out =
                DispatchJob.build(
                        DispatchInputs.of(trace, rules),
                        DispatchSettings.gateOnly(
                                new GateSettings(UpgradeTrace.RULES, STATE_TTL), 128));
        DispatchJob.sinkTo(
                out,
                new DispatchSinks(
                        new CollectingSink<>(name + "/sends"),
                        new CollectingSink<>(name + "/decisions"),
                        new CollectingSink<>(name + "/dead"),
                        null));
        return env.executeAsync("upgrade-" + name);
    }

    /** A trace line as the job's input parser reads it; times are distinct, so no sequence. */
    private static final class Parse implements MapFunction<String, ParsedRecord> {
        private static final long serialVersionUID = 1L;
        private transient WireParser parser;

        @Override
        public ParsedRecord map(String line) {
            if (parser == null) {
                parser = new WireParser(true);
            }
            return parser.parse(line, "trace", null, 0);
        }
    }

    /** Writes {@code lines} as {@code name} in {@code dir} at once: the source never sees half. */
    static void write(Path dir, String name, List<String> lines) throws IOException {
        Path hidden = dir.resolve("." + name);
        Files.write(hidden, lines, StandardCharsets.UTF_8);
        Files.move(hidden, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Times of the pushes among {@code lines}. */
    static Set<Long> pushTimes(List<String> lines) {
        Set<Long> out = new TreeSet<>();
        for (String l : lines) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = Json.read(l, Map.class);
            if ("push".equals(m.get("type"))) {
                out.add(((Number) m.get("ts")).longValue());
            }
        }
        return out;
    }

    /**
     * Waits until run {@code name} has decided a push of each of {@code times}; the push of the
     * input's last time waits for a newer one (or the end of event time) and is not waited for.
     */
    static void awaitDecided(String name, Set<Long> times, long lastTime) throws Exception {
        Set<Long> wanted = new TreeSet<>(times);
        wanted.remove(lastTime);
        Checkpoints.waitUntil(
                () -> {
                    Set<Long> seen = new TreeSet<>();
                    for (Decision d : decisions(name)) {
                        seen.add(d.ts);
                    }
                    return seen.containsAll(wanted);
                },
                "run " + name + " to decide " + wanted.size() + " pushes",
                Duration.ofMinutes(2));
    }

    static List<Decision> decisions(String name) {
        return CollectingSink.collected(name + "/decisions");
    }

    /**
     * Stops the job with a canonical savepoint under {@code dir}; {@code drain}: at the end of
     * event time, so every waiting push is decided first.
     */
    static String stop(JobClient job, boolean drain, Path dir) throws Exception {
        return job.stopWithSavepoint(drain, dir.toUri().toString(), SavepointFormatType.CANONICAL)
                .get(2, TimeUnit.MINUTES);
    }
}
