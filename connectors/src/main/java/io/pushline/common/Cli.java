package io.pushline.common;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * How every command line of Pushline runs ({@code ./pushline}, {@code ./pushline bench}, {@code
 * ./pushline serve}), on picocli:
 *
 * <ul>
 *   <li>{@code --help} (or {@code -h}) on any command prints its usage and exits 0, before the
 *       command looks for Kafka, files or anything else;
 *   <li>a command line that does not parse (an unknown flag, a missing or malformed value) prints
 *       one line and the command's usage and exits 2;
 *   <li>a {@link UsageException} or a bad job option found while the command runs prints one line
 *       and exits 2;
 *   <li>any other failure prints its stack trace and exits 1.
 * </ul>
 */
public final class Cli {
    private Cli() {}

    /** Runs {@code command} (a picocli {@code @Command}) on {@code args}; returns the exit code. */
    public static int execute(Object command, String... args) {
        return commandLine(command).execute(args);
    }

    /** The command line for {@code command} with Pushline's exit handling. */
    public static CommandLine commandLine(Object command) {
        CommandLine line = new CommandLine(command);
        line.setParameterExceptionHandler(Cli::usageError);
        line.setExecutionExceptionHandler(Cli::failure);
        line.setUsageHelpWidth(100);
        line.setCaseInsensitiveEnumValuesAllowed(true);
        // An argument is what it says: "@x" may be an audience expression or a value, never a
        // file of arguments to read.
        line.setExpandAtFiles(false);
        tidy(line);
        return line;
    }

    /**
     * Options in the order the command declares them (its own first, then --help), and --version
     * only on a command that has a version (the top one): the usage reads as the command's doc
     * comment does.
     */
    private static void tidy(CommandLine line) {
        CommandSpec spec = line.getCommandSpec();
        spec.usageMessage().sortOptions(false).sortSynopsis(false);
        OptionSpec version = spec.findOption("--version");
        if (version != null && spec.version().length == 0) {
            spec.remove(version);
        }
        line.getSubcommands().values().forEach(Cli::tidy);
    }

    /**
     * The process's entry: runs the command and halts with its exit code (Flink, Kafka and HBase
     * leave non-daemon threads behind; the command is done).
     */
    public static void main(Object command, String[] args) {
        main(commandLine(command), args);
    }

    /** {@link #main(Object, String[])} for a command line set up by the caller. */
    public static void main(CommandLine line, String[] args) {
        int code;
        try {
            code = line.execute(args);
        } catch (Throwable e) {
            // Errors too (a stack overflow, out of memory): report, and still halt below.
            System.err.println("pushline: failed: " + e);
            e.printStackTrace(System.err);
            code = 1;
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }

    /**
     * What a command that only groups subcommands throws when run alone: a usage error (one line,
     * the usage listing the subcommands, exit 2).
     */
    public static ParameterException missingSubcommand(CommandSpec spec) {
        return new ParameterException(
                spec.commandLine(),
                spec.qualifiedName() + " needs a subcommand: " + spec.subcommands().keySet());
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println("pushline: " + e.getMessage());
        command.usage(err);
        err.flush();
        return 2;
    }

    private static int failure(Exception e, CommandLine command, ParseResult parsed) {
        PrintWriter err = command.getErr();
        if (e instanceof ParameterException p) {
            return usageError(p, new String[0]);
        }
        int code;
        if (e instanceof UsageException || e instanceof OptionsParser.InvalidOptionException) {
            err.println("pushline: " + e.getMessage());
            code = 2;
        } else if (e instanceof NumberFormatException) {
            // A number inside a value the command reads itself: the caller's mistake.
            err.println(
                    "pushline: a number was expected ("
                            + e.getMessage()
                            + "); --help gives the usage");
            code = 2;
        } else {
            err.println("pushline: failed: " + e);
            e.printStackTrace(err);
            code = 1;
        }
        err.flush();
        return code;
    }
}
