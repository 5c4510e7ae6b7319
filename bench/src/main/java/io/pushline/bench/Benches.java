package io.pushline.bench;

import io.pushline.common.Cli;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Every benchmark of {@code ./pushline bench}: adding one is a {@link Bench} class (its options as
 * fields, its run as {@code call()}) and a line in {@code subcommands} here. {@code --help} on any
 * of them prints its usage and runs nothing.
 */
@Command(
        name = "pushline bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks; each prints its figures and, last, its verdict line.",
        commandListHeading = "%nBenchmarks:%n",
        footer = {
            "",
            "./pushline bench NAME --help gives a benchmark's options; results go to"
                    + " .pushline/bench as JSON."
        },
        subcommands = {
            GateBench.class,
            AudienceBench.class,
            PacingBench.class,
            ReminderBench.class,
            SendTimeBench.class,
            NightlyBench.class,
            ReceiptsBench.class,
            LatencyBench.class,
            LongconnBench.class,
            InboxBench.class,
            ApiBench.class,
            ChaosBench.class,
            HostileBench.class,
            GatewayBench.class,
            JmhCommand.class
        })
final class Benches implements Callable<Integer> {
    @Spec CommandSpec spec;

    /** Runs {@code ./pushline bench ARGS} in this JVM; returns the exit code. */
    static int run(String... args) {
        return Cli.execute(new Benches(), args);
    }

    /** The command tree, for tests and the usage. */
    static CommandLine commandLine() {
        return Cli.commandLine(new Benches());
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.out);
        return 0;
    }
}
