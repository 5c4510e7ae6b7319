package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.inbox.InboxOptions;
import io.pushline.serve.ServeOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.description.HtmlFormatter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./pushline help [COMMAND...]} prints the usage picocli generates from the commands (of one
 * command when named); {@code ./pushline help options} prints every job's options.
 */
@Command(
        name = "help",
        helpCommand = true,
        description = {
            "This text; help COMMAND [SUBCOMMAND]: that command's usage; help options: every"
                    + " job's options with their defaults, job by job."
        })
final class Help implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "COMMAND", arity = "0..*")
    List<String> path = new ArrayList<>();

    @Override
    public Integer call() {
        if (path.equals(List.of("options"))) {
            System.out.print(options());
            return 0;
        }
        CommandLine command = spec.parent().commandLine();
        for (String name : path) {
            CommandLine sub = command.getSubcommands().get(name);
            if (sub == null) {
                throw new ParameterException(
                        command, "no command '" + name + "' in " + command.getCommandName());
            }
            command = sub;
        }
        command.usage(System.out);
        return 0;
    }

    /**
     * Every job's options, generated from the options classes: the common ones once, then each
     * job's own (what its command line accepts besides the common ones).
     */
    static String options() {
        StringBuilder b = new StringBuilder();
        section(b, "Common (every job)", CommonOptions.all());
        b.append(CommonOptions.KAFKA_PROPERTIES_ROW);
        b.append(CommonOptions.HBASE_PROPERTIES_ROW);
        section(b, "Inbox (the dispatch job and `serve`)", InboxOptions.all());
        section(b, "HTTP server (`./pushline serve`)", ServeOptions.own());
        for (JobOptions job : JobOptions.ALL) {
            section(b, job.title(), job.own());
        }
        return b.toString();
    }

    private static void section(StringBuilder b, String title, List<ConfigOption<?>> options) {
        if (b.length() > 0) {
            b.append('\n');
        }
        b.append("### ").append(title).append("\n\n");
        b.append("| option | default | description |\n|---|---|---|\n");
        HtmlFormatter f = new HtmlFormatter();
        for (ConfigOption<?> o : options) {
            b.append("| `")
                    .append(o.key())
                    .append("` | ")
                    .append(o.hasDefaultValue() ? "`" + format(o.defaultValue()) + "`" : "(none)")
                    .append(" | ")
                    .append(f.format(o.description()))
                    .append(deprecated(o))
                    .append(" |\n");
        }
    }

    private static String deprecated(ConfigOption<?> o) {
        List<String> old = new ArrayList<>();
        for (FallbackKey k : o.fallbackKeys()) {
            if (k.isDeprecated()) {
                old.add("`" + k.getKey() + "`");
            }
        }
        return old.isEmpty() ? "" : " (Was " + String.join(", ", old) + ", still accepted.)";
    }

    private static String format(Object v) {
        if (v instanceof java.time.Duration) {
            long ms = ((java.time.Duration) v).toMillis();
            long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L};
            String[] names = {" d", " h", " min", " s"};
            for (int i = 0; i < units.length; i++) {
                if (ms > 0 && ms % units[i] == 0) {
                    return ms / units[i] + names[i];
                }
            }
            return ms + " ms";
        }
        return String.valueOf(v);
    }
}
