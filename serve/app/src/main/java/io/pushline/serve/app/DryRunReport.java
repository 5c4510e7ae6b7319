package io.pushline.serve.app;

import io.pushline.audience.StoreAudiences;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.dispatch.GateDryRun;
import io.pushline.dispatch.NewestCheckpoint;
import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.pacing.PacingStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The console's dry run: what the dispatch job's gate would do now with a campaign of a type to an
 * audience (from the job's newest checkpoint, {@link GateDryRun}), and how long the pacer would
 * take. {@code ./pushline audience dry-run} and serve's own jar ({@link DryRunMain}) both answer
 * with it.
 */
public final class DryRunReport {
    /** A pacer report older than this says nothing of the rates now. */
    public static final long REPORT_FRESH_MS = 5 * 60_000L;

    private DryRunReport() {}

    /**
     * The dry run against the newest checkpoint under {@code checkpoints}, on a local Flink with
     * {@code flinkConf}: the answer, or {@code {"ok":false,"error":{"message"}}} when there is no
     * checkpoint ({@code hint} says what to start) or it is not the dispatch job's.
     */
    public static Map<String, Object> newest(
            Configuration flinkConf,
            Configuration conf,
            Path checkpoints,
            String expr,
            String msgType,
            String hint)
            throws Exception {
        Path chk = GateDryRun.newest(checkpoints);
        if (chk == null) {
            return error(
                    "no checkpoint of the dispatch job under " + checkpoints + " yet: " + hint);
        }
        StreamExecutionEnvironment flink =
                StreamExecutionEnvironment.getExecutionEnvironment(flinkConf);
        flink.setParallelism(2);
        try {
            Rules rules = rulesInForce(conf);
            Map<String, Object> out =
                    answer(
                            flink,
                            conf,
                            chk,
                            expr,
                            msgType,
                            rules.text(),
                            System.currentTimeMillis());
            out.put("rules", rules.source());
            return out;
        } catch (IllegalArgumentException notTheDispatchJobs) {
            return error(notTheDispatchJobs.getMessage());
        }
    }

    public static Map<String, Object> error(String message) {
        return Map.of("ok", false, "error", Map.of("message", message));
    }

    /**
     * The dry run's answer (the JSON the console shows): the audience's members from the segment
     * store, the gate's verdicts from checkpoint {@code chk}, the pacer's time.
     */
    public static Map<String, Object> answer(
            StreamExecutionEnvironment flink,
            Configuration conf,
            Path chk,
            String expr,
            String msgType,
            String rules,
            long now)
            throws Exception {
        long t0 = System.nanoTime();
        Set<String> members = new HashSet<>();
        try (StoreAudiences store =
                new StoreAudiences(
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(HBaseTables.address(conf))),
                        conf.get(CommonOptions.HBASE_NAMESPACE),
                        100_000)) {
            IdSet ids = store.evaluate(expr);
            ids.forEachChunk(
                    10_000,
                    chunk -> {
                        for (String uid : store.uids(chunk)) {
                            if (uid != null) {
                                members.add(uid);
                            }
                        }
                    });
        }
        GateDryRun.Result r;
        try {
            r = read(flink, conf, chk, members, msgType, rules, now);
        } catch (Exception e) {
            // The running job subsumed and deleted the checkpoint while it was read: the next
            // newest one, once. (Retain enough: execution.checkpointing.num-retained.)
            Path next = NewestCheckpoint.complete(chk) ? null : newestBeside(chk);
            if (next == null) {
                throw e;
            }
            r = read(flink, conf, next, members, msgType, rules, now);
        }
        Map<String, Object> out = answer(r, conf, msgType, now);
        out.put("tookMs", (System.nanoTime() - t0) / 1_000_000);
        return out;
    }

    private static GateDryRun.Result read(
            StreamExecutionEnvironment flink,
            Configuration conf,
            Path chk,
            Set<String> members,
            String msgType,
            String rules,
            long now)
            throws Exception {
        return GateDryRun.run(
                flink, chk, members, msgType, rules, conf.get(DispatchOptions.GATE_STATE_TTL), now);
    }

    /** The newest checkpoint of the job folder that held {@code chk} (chk-N), if any. */
    private static Path newestBeside(Path chk) throws java.io.IOException {
        Path job = chk.getParent();
        return job == null ? null : GateDryRun.newest(job);
    }

    /** Rules and where they came from, as the dry run's answer says. */
    public record Rules(String text, String source) {}

    /** The rules' text in force (see {@link #rulesInForce}). */
    public static String rules(Configuration conf) throws Exception {
        return rulesInForce(conf).text();
    }

    /**
     * The rules in force as the dispatch job has them: the newest update on push.rules that parses
     * (the job keeps the rules it had when an update does not), else the job's rules file, else the
     * defaults. Read with the job's Kafka settings (TLS, SASL). When push.rules cannot be read the
     * answer says so next to the rules it used instead, rather than quietly.
     */
    public static Rules rulesInForce(Configuration conf) throws Exception {
        String bootstrap = conf.get(CommonOptions.KAFKA_BOOTSTRAP);
        String[] newest = {null, null};
        String unreadable = null;
        if (bootstrap != null) {
            try {
                CommittedRecords.readAll(
                        bootstrap,
                        KafkaIO.clientProperties(conf),
                        Topics.RULES,
                        r -> {
                            String text = new String(r.value(), StandardCharsets.UTF_8);
                            try {
                                io.pushline.dispatch.gate.RulesParser.parse(text);
                                newest[0] = text;
                                newest[1] = r.partition() + "-" + r.offset();
                            } catch (RuntimeException bad) {
                                // the job refused it too and kept the rules it had
                            }
                        });
            } catch (RuntimeException e) {
                unreadable = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        }
        if (newest[0] != null) {
            return new Rules(newest[0], "push.rules, its newest valid update (" + newest[1] + ")");
        }
        String file = conf.get(DispatchOptions.GATE_RULES);
        String source =
                file == null || file.isBlank()
                        ? "the defaults (no dispatch.gate.rules file, no update on push.rules)"
                        : "the rules file " + file + " (no valid update on push.rules)";
        if (unreadable != null) {
            String why = unreadable.length() > 300 ? unreadable.substring(0, 300) : unreadable;
            source =
                    source.replace(" (no valid update on push.rules)", "")
                            + "; push.rules could not be read, so its updates, if any, are not"
                            + " in this answer: "
                            + why;
        }
        String text = file == null || file.isBlank() ? "{}" : Files.readString(Paths.get(file));
        return new Rules(text, source);
    }

    public static Map<String, Object> answer(
            GateDryRun.Result r, Configuration conf, String msgType, long now) {
        Map<String, PacingStatus> reports =
                reports(
                        conf.get(CommonOptions.KAFKA_BOOTSTRAP),
                        KafkaIO.clientProperties(conf),
                        now);
        Map<String, Double> configured = new HashMap<>(PacingConfig.DEFAULT_RATES);
        conf.get(DispatchOptions.PACING_RATES)
                .forEach((k, v) -> configured.put(k, Double.parseDouble(v.trim())));
        List<Map<String, Object>> vendors = GateDryRun.vendors(r);
        double longest = 0;
        for (Map<String, Object> v : vendors) {
            String vendor = (String) v.get("vendor");
            PacingStatus s = reports.get(vendor);
            double rate = s != null && s.rate > 0 ? s.rate : configured.getOrDefault(vendor, 0.0);
            long backlog = s != null ? s.backlog : 0;
            long pass = (Long) v.get("pass");
            v.put("rate", Math.round(rate));
            v.put("backlog", backlog);
            double seconds = rate > 0 ? (backlog + pass) / rate : 0;
            v.put("seconds", seconds);
            longest = Math.max(longest, seconds);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ok", true);
        out.put("msgType", msgType);
        out.put("members", r.members);
        out.put("withDevice", r.withDevice);
        out.put("devices", r.devices);
        out.put("pass", r.pass);
        out.put("dropped", r.dropped);
        out.put("drops", r.drops);
        out.put("vendors", vendors);
        out.put("pacerSeconds", longest);
        out.put(
                "ratesFrom",
                reports.isEmpty()
                        ? "configured (no pacer report in the last 5 minutes)"
                        : "the pacer's reports on " + Topics.PACING_STATUS);
        Map<String, Object> state = new LinkedHashMap<>();
        boolean savepoint = r.checkpoint.getName().startsWith("savepoint");
        state.put("source", (savepoint ? "savepoint " : "checkpoint ") + r.checkpoint.getName());
        state.put("path", r.checkpoint.toString());
        state.put("takenAt", r.takenAt);
        state.put("ageMs", Math.max(0, now - r.takenAt));
        out.put("state", state);
        out.put("now", now);
        return out;
    }

    /**
     * The newest fresh report of each vendor on push.pacing (the last records of each partition).
     */
    private static Map<String, PacingStatus> reports(
            String bootstrap, java.util.Properties security, long now) {
        Map<String, PacingStatus> out = new HashMap<>();
        if (bootstrap == null) {
            return out;
        }
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(withSecurity(KafkaIO.toEndReader(bootstrap), security))) {
            List<TopicPartition> parts = CommittedRecords.partitions(c, Topics.PACING_STATUS);
            c.assign(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            for (TopicPartition tp : parts) {
                c.seek(tp, Math.max(0, end.get(tp) - 500));
            }
            long deadline = System.currentTimeMillis() + 5_000;
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))
                    && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> rec : c.poll(Duration.ofMillis(200))) {
                    try {
                        PacingStatus s =
                                Json.read(
                                        new String(rec.value(), StandardCharsets.UTF_8),
                                        PacingStatus.class);
                        if (s != null && s.vendor != null && now - s.ts < REPORT_FRESH_MS) {
                            PacingStatus old = out.get(s.vendor);
                            if (old == null || old.ts <= s.ts) {
                                out.put(s.vendor, s);
                            }
                        }
                    } catch (RuntimeException notAReport) {
                        // the job dead-letters these; here they are just not a rate
                    }
                }
            }
        } catch (RuntimeException noTopic) {
            // no pacer has reported: configured rates
        }
        return out;
    }

    private static java.util.Properties withSecurity(
            java.util.Properties p, java.util.Properties security) {
        p.putAll(security);
        return p;
    }
}
