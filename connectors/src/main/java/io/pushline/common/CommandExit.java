package io.pushline.common;

/**
 * The exit handling of the {@code ./pushline} commands: a usage or option error (a flag whose value
 * is not a number among them) is one line on stderr and exit code 2, any other failure its stack
 * trace and exit code 1.
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
        } catch (NumberFormatException e) {
            // A flag's value that is not a number: the caller's mistake, not a failure.
            System.err.println(
                    "pushline: a number was expected ("
                            + e.getMessage()
                            + "); ./pushline help lists every command's usage");
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
