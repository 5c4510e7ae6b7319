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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline sendtime --activity FILE --date YYYY-MM-DD [--rules FILE] --out FILE}: the
 * send-time job (docs/send-time.md) on a local Flink environment in BATCH mode. Output lines are
 * sorted by uid, so a run is reproducible byte for byte; bad activity lines go to standard error
 * and to {@code OUT.rejected} (line number, reason, the raw text) and the run goes on.
 */
@Command(
        name = "sendtime",
        mixinStandardHelpOptions = true,
        description = {
            "Each user's first and last push time (docs/send-time.md): the send-time job (BATCH);"
                    + " lines sorted by uid; bad lines to stderr and OUT.rejected."
        })
final class SendTimeCommand implements Callable<Integer> {
    @Option(names = "--activity", required = true, paramLabel = "FILE")
    Path activity;

    @Option(names = "--date", required = true, paramLabel = "YYYY-MM-DD")
    LocalDate date;

    @Option(names = "--rules", paramLabel = "FILE", description = "Default: the built-in rules.")
    Path rulesFile;

    @Option(names = "--out", required = true, paramLabel = "FILE")
    Path out;

    @Option(names = "--predictor", paramLabel = "rules|histogram", description = "Default: rules.")
    SendTimeJob.Predictor predictor = SendTimeJob.Predictor.RULES;

    @Override
    public Integer call() throws Exception {
        SendTimeRules rules = SendTimeRules.defaults();
        if (rulesFile != null) {
            try {
                rules = SendTimeRules.parse(read(rulesFile));
            } catch (RulesException e) {
                throw new UsageException(rulesFile + ": " + e.getMessage());
            }
        }
        Path rejectedFile = Paths.get(out + ".rejected");
        List<ActivityEvent> events = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
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
