package io.pushline.cli;

import io.pushline.common.UsageException;
import io.pushline.local.gen.NightlyData;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * {@code ./pushline gen [--users N] [--days D] [--date YYYY-MM-DD] [--seed S] [--out DIR]}:
 * generated users with known habits (see NightlyData); the same seed and date give the same files.
 */
final class GenCommand {
    private static final String USAGE =
            "usage: ./pushline gen [--users N] [--days D] [--date YYYY-MM-DD] [--seed S] [--out DIR]";

    private GenCommand() {}

    static int run(String[] args) throws Exception {
        int users = 10_000;
        int days = 14;
        long seed = 1;
        LocalDate date = LocalDate.now(ZoneOffset.UTC);
        Path out = Path.of(".pushline", "gen");
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                throw new UsageException(USAGE);
            }
            String v = args[++i];
            try {
                switch (args[i - 1]) {
                    case "--users":
                        users = Integer.parseInt(v);
                        break;
                    case "--days":
                        days = Integer.parseInt(v);
                        break;
                    case "--seed":
                        seed = Long.parseLong(v);
                        break;
                    case "--date":
                        date = LocalDate.parse(v);
                        break;
                    case "--out":
                        out = Path.of(v);
                        break;
                    default:
                        throw new UsageException(USAGE);
                }
            } catch (NumberFormatException | DateTimeParseException e) {
                throw new UsageException(args[i - 1] + ": bad value '" + v + "'\n" + USAGE);
            }
        }
        long t0 = System.nanoTime();
        new NightlyData(seed, date, days).write(out, users);
        System.out.printf(
                "gen: %,d users, activity on the %d days before %s (seed %d) in %s: users.jsonl,"
                        + " devices.jsonl, activity.jsonl, truth.jsonl (%.1f s)%n",
                users, days, date, seed, out, (System.nanoTime() - t0) / 1e9);
        return 0;
    }
}
