package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Every command answers --help with its usage before it needs anything else. */
class CommandHelpTest {
    @Test
    void aCommandsHelpIsItsLinesOfTheHelpText() {
        assertThat(Help.usageOf("produce")).startsWith("  produce TOPIC [FILE]").hasLineCount(1);
        assertThat(Help.usageOf("consume")).contains("--follow").contains("committed records");
        assertThat(Help.usageOf("audience"))
                .contains("audience eval")
                .contains("audience dry-run")
                .contains("audience build")
                .doesNotContain("bench");
        assertThat(Help.usageOf("nope")).isEmpty();
    }

    @Test
    void dashDashHelpPrintsTheUsageAndExitsZeroWithoutAStack() throws Exception {
        // With no stack running, "produce" itself would fail for want of Kafka.
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run(new String[] {"produce", "push.requests", "--help"});
        } finally {
            System.setOut(out);
        }
        assertThat(code).isZero();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("produce TOPIC [FILE]");
        assertThatThrownBy(() -> Main.run(new String[] {"frobnicate", "--help"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown command");
    }

    @Test
    void theHelpListsEveryBenchmark() {
        for (String bench :
                new String[] {
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
                    "chaos",
                    "hostile",
                    "jmh"
                }) {
            assertThat(Help.TEXT).contains("  bench " + bench + " ");
        }
    }
}
