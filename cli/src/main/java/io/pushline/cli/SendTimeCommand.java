package io.pushline.cli;

import io.pushline.common.UsageException;
import io.pushline.schema.Json;
import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.sendtime.ActivityParser;
import io.pushline.sendtime.SendTimeJob;
import io.pushline.sendtime.predict.SendTimeRules;
import io.pushline.udf.RulesException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * {@code ./pushline sendtime --activity FILE --date YYYY-MM-DD [--rules FILE] --out FILE}: the
 * send-time job (docs/send-time.md) on a local Flink environment in BATCH mode. Output lines are
 * sorted by uid, so a run is reproducible byte for byte; bad activity lines go to standard error
 * and to {@code OUT.rejected} (line number, reason, the raw text) and the run goes on.
 */
final class SendTimeCommand {
    private static final String USAGE =
            "usage: ./pushline sendtime --activity FILE --date YYYY-MM-DD [--rules FILE] --out"
                    + " FILE [--predictor rules|histogram]";

    private SendTimeCommand() {}

    static int run(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String k = args[i];
            if (!List.of("--activity", "--date", "--rules", "--out", "--predictor").contains(k)
                    || i + 1 >= args.length) {
                throw new UsageException(USAGE);
            }
            a.put(k, args[++i]);
        }
        if (!a.containsKey("--activity") || !a.containsKey("--date") || !a.containsKey("--out")) {
            throw new UsageException(USAGE);
        }
        LocalDate date;
        try {
            date = LocalDate.parse(a.get("--date"));
        } catch (DateTimeParseException e) {
            throw new UsageException("--date: expected YYYY-MM-DD, got '" + a.get("--date") + "'");
        }
        SendTimeRules rules = SendTimeRules.defaults();
        if (a.containsKey("--rules")) {
            Path file = Paths.get(a.get("--rules"));
            try {
                rules = SendTimeRules.parse(read(file));
            } catch (RulesException e) {
                throw new UsageException(file + ": " + e.getMessage());
            }
        }
        SendTimeJob.Predictor predictor = SendTimeJob.Predictor.RULES;
        if (a.containsKey("--predictor")) {
            try {
                predictor =
                        SendTimeJob.Predictor.valueOf(
                                a.get("--predictor").toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UsageException(
                        "--predictor: rules or histogram, got '" + a.get("--predictor") + "'");
            }
        }
        Path out = Paths.get(a.get("--out"));
        Path rejectedFile = Paths.get(out + ".rejected");
        List<ActivityEvent> events = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        Path activity = Paths.get(a.get("--activity"));
        if (!Files.isRegularFile(activity)) {
            throw new UsageException("--activity: no such file " + activity);
        }
        try (BufferedReader r = Files.newBufferedReader(activity, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    events.add(ActivityParser.parse(line));
                } catch (ActivityParser.BadLine e) {
                    ReplayCommand.reject(rejected, n, e.getMessage(), line);
                }
            }
        }
        List<SendTime> predicted = new ArrayList<>();
        if (!events.isEmpty()) {
            predicted = predict(events, rules, date, predictor);
        }
        predicted.sort(Comparator.comparing(s -> s.uid));
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (SendTime s : predicted) {
                w.write(Json.write(s));
                w.write('\n');
            }
        }
        Files.write(rejectedFile, rejected, StandardCharsets.UTF_8);
        System.err.printf(
                "sendtime: %d events, %d users to %s, %d rejected lines to %s%n",
                events.size(), predicted.size(), out, rejected.size(), rejectedFile);
        return 0;
    }

    static List<SendTime> predict(
            List<ActivityEvent> events,
            SendTimeRules rules,
            LocalDate date,
            SendTimeJob.Predictor predictor)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        List<SendTime> out = new ArrayList<>();
        try (CloseableIterator<SendTime> it =
                SendTimeJob.build(
                                env.fromData(events, TypeInformation.of(ActivityEvent.class)),
                                rules,
                                date,
                                predictor)
                        .executeAndCollect(SendTimeJob.NAME)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--rules: no such file " + file);
        }
    }
}
