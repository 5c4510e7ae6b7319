package io.pushline.cli;

import io.pushline.local.gen.NightlyData;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline gen}: generated users with known habits (see NightlyData); the same seed and
 * date give the same files.
 */
@Command(
        name = "gen",
        mixinStandardHelpOptions = true,
        description = "Generated users with known habits (activity, truth) for the nightly jobs.")
final class GenCommand implements Callable<Integer> {
    @Option(names = "--users", paramLabel = "N", description = "Default ${DEFAULT-VALUE}.")
    int users = 10_000;

    @Option(
            names = "--days",
            paramLabel = "D",
            description = "Days of activity (default ${DEFAULT-VALUE}).")
    int days = 14;

    @Option(
            names = "--date",
            paramLabel = "YYYY-MM-DD",
            description = "The day the activity leads up to (default: today, UTC).")
    LocalDate date = LocalDate.now(ZoneOffset.UTC);

    @Option(names = "--seed", paramLabel = "S", description = "Default ${DEFAULT-VALUE}.")
    long seed = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "Default ${DEFAULT-VALUE}.")
    Path out = Path.of(".pushline", "gen");

    @Override
    public Integer call() throws Exception {
        long t0 = System.nanoTime();
        new NightlyData(seed, date, days).write(out, users);
        System.out.printf(
                "gen: %,d users, activity on the %d days before %s (seed %d) in %s: users.jsonl,"
                        + " devices.jsonl, activity.jsonl, truth.jsonl (%.1f s)%n",
                users, days, date, seed, out, (System.nanoTime() - t0) / 1e9);
        return 0;
    }
}
