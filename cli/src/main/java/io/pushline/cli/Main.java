package io.pushline.cli;

import io.pushline.common.CommandExit;
import io.pushline.common.UsageException;
import java.util.Arrays;

/** Entry point of {@code ./pushline}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        CommandExit.runAndHalt(() -> run(args));
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            System.out.print(Help.TEXT);
            return 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (!args[0].equals("help")
                && (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h"))) {
            // Every command answers --help with its lines of the help text, before it looks for
            // Kafka, files or anything else it needs.
            String usage = Help.usageOf(args[0]);
            if (usage.isEmpty()) {
                throw new UsageException("unknown command '" + args[0] + "'; try ./pushline help");
            }
            System.out.print(usage);
            return 0;
        }
        switch (args[0]) {
            case "help":
            case "--help":
            case "-h":
                return Help.run(rest);
            case "local":
                return LocalCommand.run(rest);
            case "run":
                return RunCommand.run(rest);
            case "cluster":
                return ClusterCommand.run(rest);
            case "demo":
                return DemoCommand.run(rest);
            case "audience":
                return AudienceCommand.run(rest);
            case "bench":
                // ./pushline runs the bench module for these; its classes are not the CLI's.
                throw new UsageException("bench commands run through ./pushline bench ...");
            case "replay":
                return ReplayCommand.run(rest);
            case "reminders":
                return RemindersCommand.run(rest);
            case "longconn":
                return LongconnCommand.run(rest);
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
}
