package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The benchmark registry: names, usage, --help without running anything. */
class BenchesTest {
    @Test
    void everyBenchmarkHasOneNameAndAUsage() {
        assertThat(Benches.ALL.stream().map(Benches.Entry::name).collect(Collectors.toSet()))
                .hasSize(Benches.ALL.size())
                .contains("gate", "latency", "chaos", "inbox", "reminders", "pacing", "jmh");
        assertThat(Benches.ALL).allSatisfy(e -> assertThat(e.what()).isNotBlank());
    }

    @Test
    void helpPrintsTheUsageAndRunsNothing() throws Exception {
        // "chaos" would start a whole cluster: --help must answer before any of it.
        String printed =
                printed(() -> assertThat(Benches.run(new String[] {"chaos", "--help"})).isZero());
        assertThat(printed).startsWith("  ./pushline bench chaos [--devices N]").contains("exit 1");
        String all = printed(() -> assertThat(Benches.run(new String[] {"--help"})).isZero());
        assertThat(all.lines().filter(l -> l.startsWith("  ./pushline bench ")))
                .hasSize(Benches.ALL.size());
    }

    @Test
    void anUnknownBenchmarkIsAUsageError() {
        assertThatThrownBy(() -> Benches.run(new String[] {"gaet"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown benchmark 'gaet'")
                .hasMessageContaining("./pushline bench gate");
    }

    interface Action {
        void run() throws Exception;
    }

    private static String printed(Action action) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setOut(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
