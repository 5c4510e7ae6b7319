package io.pushline.cli;

import io.pushline.common.UsageException;
import io.pushline.recall.RecallJob;
import io.pushline.recall.RecallLines;
import io.pushline.schema.Json;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.UserRecall;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline recall --data DIR --date YYYY-MM-DD [--k 5] [--pushed-days 7] --out FILE}: the
 * recall job on a local Flink environment (BATCH) over a folder as {@code ./pushline gen} writes it
 * (users.jsonl, history.jsonl, materials.jsonl); one line per user, sorted by uid; bad lines to
 * standard error and {@code OUT.rejected}.
 */
@Command(
        name = "recall",
        mixinStandardHelpOptions = true,
        description = {
            "Each user's top items for the day's pushes: the recall job (BATCH) over a folder as"
                    + " gen writes it; one line per user, sorted by uid; bad lines to stderr and"
                    + " OUT.rejected."
        })
final class RecallCommand implements Callable<Integer> {
    @Option(
            names = "--data",
            required = true,
            paramLabel = "DIR",
            description = "users.jsonl, history.jsonl, materials.jsonl")
    Path data;

    @Option(names = "--date", required = true, paramLabel = "YYYY-MM-DD")
    LocalDate date;

    @Option(
            names = "--k",
            paramLabel = "K",
            description = "Items per user (default ${DEFAULT-VALUE}).")
    int k = 5;

    @Option(
            names = "--pushed-days",
            paramLabel = "D",
            description =
                    "Items pushed in the last D days are not recalled (default ${DEFAULT-VALUE}).")
    int pushedDays = 7;

    @Option(names = "--out", required = true, paramLabel = "FILE")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<String> rejected = new ArrayList<>();
        List<RecallInput> users = new ArrayList<>();
        read(data.resolve("users.jsonl"), RecallLines::profile, users, rejected);
        read(data.resolve("history.jsonl"), RecallLines::history, users, rejected);
        List<Material> materials = new ArrayList<>();
        read(data.resolve("materials.jsonl"), RecallLines::material, materials, rejected);
        List<UserRecall> recalled = new ArrayList<>();
        if (!users.isEmpty() && !materials.isEmpty()) {
            recalled = recall(users, materials, date, k, pushedDays);
        }
        recalled.sort(Comparator.comparing(r -> r.uid));
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (UserRecall r : recalled) {
                w.write(Json.write(r));
                w.write('\n');
            }
        }
        Files.write(Paths.get(out + ".rejected"), rejected, StandardCharsets.UTF_8);
        System.err.printf(
                "recall: %d users recalled to %s, %d rejected lines%n",
                recalled.size(), out, rejected.size());
        return 0;
    }

    static List<UserRecall> recall(
            List<RecallInput> users, List<Material> materials, LocalDate date, int k, int days)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        List<UserRecall> out = new ArrayList<>();
        try (CloseableIterator<UserRecall> it =
                RecallJob.build(
                                env.fromData(users, TypeInformation.of(RecallInput.class)),
                                env.fromData(materials, TypeInformation.of(Material.class)),
                                date,
                                k,
                                days,
                                50)
                        .executeAndCollect(RecallJob.NAME)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static <T> void read(
            Path file, Function<String, T> parse, List<? super T> into, List<String> rejected)
            throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new UsageException("--data: no " + file);
        }
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            try {
                into.add(parse.apply(line));
            } catch (RuntimeException e) {
                ReplayCommand.reject(rejected, n, file.getFileName() + ": " + e.getMessage(), line);
            }
        }
    }
}
