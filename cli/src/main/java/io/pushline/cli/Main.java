package io.pushline.cli;

import io.pushline.common.Cli;
import io.pushline.common.UsageException;
import io.pushline.serve.ServeCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Entry point of {@code ./pushline}: the commands, each a picocli {@code @Command} class whose
 * options and description are its usage ({@code --help}, {@code ./pushline help}).
 */
@Command(
        name = "pushline",
        mixinStandardHelpOptions = true,
        version = "pushline 0.1.0",
        description = "Push-notification pipeline on Apache Flink.",
        commandListHeading = "%nCommands:%n",
        footer = {
            "",
            "./pushline COMMAND --help gives a command's usage; ./pushline bench --help lists the"
                    + " benchmarks.",
            "Environment: PUSHLINE_HOME (default .pushline) holds all local data; JAVA_OPTS is"
                    + " passed to the JVM."
        },
        subcommands = {
            DemoCommand.class,
            LocalCommand.class,
            RunCommand.class,
            ClusterCommand.class,
            ReplayCommand.class,
            RemindersCommand.class,
            LongconnCommand.class,
            ServeCommand.class,
            SendTimeCommand.class,
            GenCommand.class,
            RecallCommand.class,
            AudienceCommand.class,
            Main.Bench.class,
            TraceCommand.class,
            SqlCommand.class,
            ReportCommand.class,
            TopicCommand.Produce.class,
            TopicCommand.Consume.class,
            Help.class
        })
public final class Main implements Callable<Integer> {
    @Spec CommandSpec spec;

    public static void main(String[] args) {
        Cli.main(new Main(), args);
    }

    /** Runs {@code ./pushline ARGS} in this JVM; returns the exit code. */
    static int run(String... args) {
        return Cli.execute(new Main(), args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.out);
        return 0;
    }

    /**
     * {@code ./pushline bench ...} runs the bench module (its own classpath: benchmarks, JMH, the
     * Redis peer), so the CLI only names it here.
     */
    @Command(
            name = "bench",
            mixinStandardHelpOptions = true,
            description = {
                "Benchmarks (gate, audience, pacing, reminders, sendtime, nightly, receipts,"
                        + " latency, longconn, inbox, api, chaos, hostile, gateway, jmh); ./pushline bench"
                        + " --help lists them with their options."
            })
    static final class Bench implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new UsageException("benchmarks run through ./pushline bench ...");
        }
    }
}
