package io.pushline.common;

/**
 * The exit handling of the {@code ./pushline} commands: a usage or option error is one line on
 * stderr and exit code 2, any other failure its stack trace and exit code 1.
 */
public final class CommandExit {
    /** A command: returns its exit code. */
    @FunctionalInterface
    public interface Command {
        int run() throws Exception;
    }

    private CommandExit() {}

    public static void runAndHalt(Command command) {
        int code;
        try {
            code = command.run();
        } catch (OptionsParser.InvalidOptionException | UsageException e) {
            System.err.println("pushline: " + e.getMessage());
            code = 2;
        } catch (Exception e) {
            System.err.println("pushline: failed: " + e);
            e.printStackTrace(System.err);
            code = 1;
        }
        System.out.flush();
        // Flink, Kafka and HBase leave non-daemon threads behind; the command is done.
        Runtime.getRuntime().halt(code);
    }
}
