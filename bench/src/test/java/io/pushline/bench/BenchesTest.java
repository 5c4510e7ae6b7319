package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The benchmark registry: names, usage, --help and usage errors without running anything. */
class BenchesTest {
    private static final Set<String> ALL =
            Set.of(
                    "gate",
                    "audience",
                    "pacing",
                    "reminders",
                    "sendtime",
                    "nightly",
                    "receipts",
                    "latency",
                    "longconn",
                    "inbox",
                    "api",
                    "chaos",
                    "hostile",
                    "gateway",
                    "jmh");

    @Test
    void everyBenchmarkIsRegisteredWithADescription() {
        var subcommands = Benches.commandLine().getSubcommands();
        assertThat(subcommands.keySet()).containsExactlyInAnyOrderElementsOf(ALL);
        subcommands.forEach(
                (name, line) ->
                        assertThat(line.getCommandSpec().usageMessage().description())
                                .as(name)
                                .isNotEmpty());
    }

    @Test
    void theMainHelpNamesEveryBenchmark() throws Exception {
        // ./pushline help runs the CLI, which does not carry the bench module: its line for
        // "bench" names them, and must keep up with this registry.
        String cli =
                Files.readString(
                        Path.of(
                                "..",
                                "cli",
                                "src",
                                "main",
                                "java",
                                "io",
                                "pushline",
                                "cli",
                                "Main.java"));
        String line = cli.substring(cli.indexOf("name = \"bench\""));
        line = line.substring(0, line.indexOf("})"));
        for (String name : ALL) {
            assertThat(line).as(name).containsPattern("\\b" + name + "\\b");
        }
    }

    @Test
    void helpPrintsTheUsageAndRunsNothing() throws Exception {
        // "chaos" would start a whole cluster: --help must answer before any of it.
        String[] chaos = new String[1];
        assertThat(printed(() -> Benches.run("chaos", "--help"), chaos)).isZero();
        assertThat(chaos[0])
                .startsWith("Usage: pushline bench chaos ")
                .contains("--faults=FAULT")
                .contains("exit 1");
        String[] all = new String[1];
        assertThat(printed(() -> Benches.run("--help"), all)).isZero();
        for (String name : ALL) {
            assertThat(all[0]).containsPattern("(?m)^  " + name + " ");
        }
    }

    @Test
    void aBadValueIsAUsageErrorNotAStackTrace() throws Exception {
        String[] err = new String[1];
        PrintStream e = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Benches.run("inbox", "--clients", "eight");
        } finally {
            System.setErr(e);
        }
        err[0] = bytes.toString(StandardCharsets.UTF_8);
        assertThat(code).isEqualTo(2);
        assertThat(err[0])
                .startsWith("pushline: Invalid value for option '--clients': 'eight' is not an int")
                .contains("Usage: pushline bench inbox ")
                .doesNotContain("\tat ");
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            bytes.reset();
            code = Benches.run("gaet");
        } finally {
            System.setErr(e);
        }
        assertThat(code).isEqualTo(2);
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .startsWith("pushline: Unmatched argument");
    }

    interface Action {
        int run() throws Exception;
    }

    private static int printed(Action action, String[] into) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            return action.run();
        } finally {
            System.setOut(out);
            into[0] = bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
