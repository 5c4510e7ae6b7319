package io.pushline.bench;

import picocli.CommandLine.Option;

/**
 * The {@code --repeat R} option of the benchmarks that run in rounds (a picocli mixin): how many
 * rounds, at least 1; each benchmark's last line gives the median over them with the spread.
 */
final class Rounds {
    @Option(
            names = "--repeat",
            paramLabel = "R",
            description =
                    "Rounds (each interleaves the job with its baseline, or starts afresh); the"
                            + " last line gives their median and spread (default"
                            + " ${DEFAULT-VALUE}).")
    int repeat = 3;

    /** The number of rounds, checked: a usage error below 1. */
    int count() {
        return BenchResults.rounds(repeat);
    }
}
