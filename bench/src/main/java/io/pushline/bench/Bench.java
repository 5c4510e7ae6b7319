package io.pushline.bench;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A benchmark of {@code ./pushline bench}: a picocli {@code @Command} whose fields are its options
 * and whose {@link #call()} runs it and returns the exit code. Registered in {@link Benches}.
 */
abstract class Bench implements Callable<Integer> {
    @Spec CommandSpec spec;

    /** Where the benchmark's figures go: rounds, medians, the result file. */
    BenchResults results() {
        return new BenchResults(spec.name(), args());
    }

    /** The benchmark's arguments as given, without its name. */
    String[] args() {
        List<String> all = spec.commandLine().getParseResult().originalArgs();
        int at = all.indexOf(spec.name());
        return all.subList(at + 1, all.size()).toArray(new String[0]);
    }

    @Override
    public String toString() {
        return spec == null ? getClass().getSimpleName() : spec.name() + Arrays.toString(args());
    }
}
