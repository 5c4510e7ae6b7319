package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.Cli;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line's conventions: every command answers --help with its usage and exit 0 before it
 * needs anything else; a usage error is one line, the usage, exit 2; help is generated from the
 * commands.
 */
class CommandHelpTest {
    @Test
    void everyCommandAndSubcommandAnswersHelpWithItsUsage() {
        List<List<String>> paths = new ArrayList<>();
        collect(Cli.commandLine(new Main()), new ArrayList<>(), paths);
        assertThat(paths.stream().map(p -> String.join(" ", p)))
                .contains(
                        "demo",
                        "local up",
                        "cluster submit",
                        "reminders replay",
                        "audience dry-run",
                        "serve",
                        "produce",
                        "bench")
                .hasSizeGreaterThan(25);
        for (List<String> path : paths) {
            List<String> line = new ArrayList<>(path);
            line.add("--help");
            // "produce" would fail for want of Kafka, "demo" would start a stack, "serve" a server.
            Ran ran = Ran.pushline(line.toArray(new String[0]));
            assertThat(ran.code()).as(line + "\n" + ran.err()).isZero();
            assertThat(ran.out())
                    .as(line.toString())
                    .startsWith("Usage: pushline " + String.join(" ", path) + " ");
            assertThat(ran.err()).as(line.toString()).isEmpty();
        }
    }

    @Test
    void aUsageErrorIsOneLineThenTheUsageAndExitTwo() {
        Ran badNumber = Ran.pushline("gen", "--users", "many");
        assertThat(badNumber.code()).isEqualTo(2);
        assertThat(badNumber.err().lines().findFirst().orElseThrow())
                .isEqualTo("pushline: Invalid value for option '--users': 'many' is not an int");
        assertThat(badNumber.err()).contains("Usage: pushline gen ");
        assertThat(badNumber.out()).isEmpty();

        Ran missing = Ran.pushline("replay", "--trace", "t.jsonl");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).startsWith("pushline: Missing required option: '--out=FILE'");

        Ran unknown = Ran.pushline("frobnicate");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("pushline: Unmatched argument").contains("Commands:");

        Ran group = Ran.pushline("cluster");
        assertThat(group.code()).isEqualTo(2);
        assertThat(group.err()).startsWith("pushline: pushline cluster needs a subcommand");
    }

    @Test
    void aJobOptionIsCheckedAgainstTheJobsOptionsAndNamed() {
        Ran ran = Ran.pushline("run", "dispatch", "--gate.rulez", "x.yaml");
        assertThat(ran.code()).isEqualTo(2);
        assertThat(ran.err()).startsWith("pushline: unknown option 'gate.rulez'").hasLineCount(1);
    }

    @Test
    void helpIsGeneratedFromTheCommands() {
        Ran all = Ran.pushline("help");
        assertThat(all.code()).isZero();
        for (String command : Cli.commandLine(new Main()).getSubcommands().keySet()) {
            assertThat(all.out()).as(command).containsPattern("(?m)^  " + command + " ");
        }
        Ran one = Ran.pushline("help", "audience", "count");
        assertThat(one.out()).startsWith("Usage: pushline audience count ");
        Ran options = Ran.pushline("help", "options");
        assertThat(options.out())
                .contains("### Common (every job)")
                .contains("`dispatch.gate.rules`");
    }

    private static void collect(CommandLine line, List<String> path, List<List<String>> into) {
        for (Map.Entry<String, CommandLine> sub : line.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help")) {
                continue;
            }
            List<String> p = new ArrayList<>(path);
            p.add(sub.getKey());
            into.add(p);
            collect(sub.getValue(), p, into);
        }
    }
}
