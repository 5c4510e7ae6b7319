package io.pushline.cli;

import io.pushline.common.OptionsParser;
import java.util.Arrays;

/** Entry point of {@code ./pushline}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
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

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            System.out.print(Help.TEXT);
            return 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "help":
            case "--help":
            case "-h":
                return Help.run(rest);
            case "local":
                return LocalCommand.run(rest);
            case "run":
                return RunCommand.run(rest);
            case "demo":
                return DemoCommand.run(rest);
            case "audience":
                return AudienceCommand.run(rest);
            case "bench":
                return BenchCommand.run(rest);
            case "replay":
                return ReplayCommand.run(rest);
            case "sendtime":
                return SendTimeCommand.run(rest);
            case "gen":
                return GenCommand.run(rest);
            case "recall":
                return RecallCommand.run(rest);
            case "trace":
                return TraceCommand.run(rest);
            case "sql":
                return SqlCommand.run(rest);
            case "report":
                return ReportCommand.run(rest);
            case "produce":
                return TopicCommand.produce(rest);
            case "consume":
                return TopicCommand.consume(rest);
            default:
                throw new UsageException("unknown command '" + args[0] + "'; try ./pushline help");
        }
    }

    /** A command line that does not fit the command: reported without a stack trace. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
