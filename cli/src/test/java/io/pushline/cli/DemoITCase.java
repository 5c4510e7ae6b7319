package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.local.LocalStackExtension;
import io.pushline.testkit.Clusters;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The demo at a small size, as {@code ./pushline demo} runs it (on the embedded stack the module's
 * integration tests share, its topics emptied first, instead of one of its own): generated devices
 * with churn, requests to uids and devices, malformed records, the nightly job and schedule feed
 * for 800 generated users, the dispatch job at parallelism 2, then vendor receipts through the
 * receipts job and the biggest campaign's report. It exits 0 only when every output count equals
 * the in-memory model of the input and the metrics tables equal the gateways' counts.
 */
class DemoITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    // The jobs run on one MiniCluster for the whole test JVM, as the other ITCases' do; the CLI
    // itself starts a local cluster per job, which is not what these tests are about.
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    // Small: every step and check of the demo runs, and most of its time is the jobs' start-up.
    static final int DEVICES = 2000;
    static final int REQUESTS = 150;
    static final int USERS = 800;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void demoOutputMatchesTheModel() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int code;
        // every log line of the run (the stack's, Flink's, the jobs'), to look for tokens in
        StringWriter logs = new StringWriter();
        LoggerContext ctx = LoggerContext.getContext(false);
        Appender appender =
                WriterAppender.newBuilder()
                        .setName("demo-log-scan")
                        .setTarget(logs)
                        .setLayout(PatternLayout.newBuilder().withPattern("%m %ex%n").build())
                        .build();
        appender.start();
        ctx.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
        ctx.updateLoggers();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            // on the stack the CLI's integration tests share: one stack start less per build
            code = DemoCommand.runOn(STACK.get(), DEVICES, REQUESTS, USERS);
        } finally {
            System.setOut(stdout);
            ctx.getConfiguration().getRootLogger().removeAppender("demo-log-scan");
            ctx.updateLoggers();
            appender.stop();
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        assertThat(out)
                .contains("Sends per vendor topic:")
                .contains("push.vendor.huawei")
                .contains("quiet_hours")
                .contains("min_interval")
                .contains("Personal pushes (the nightly slots, decided at their slot times):")
                .contains("every personal slot is decided once")
                .contains("every PASS is one send in its vendor's topic. OK")
                .contains(
                        "Check: the minute tables count every decision and receipt once; every"
                                + " invalid token became an unbind. OK")
                .contains("Report page:")
                .contains("$ ./pushline trace msg-")
                .containsPattern("status     \\w+");
        assertThat(out).contains("device tokens the demo bound shows in push.dlq or the log. OK");
        // the same data as the run (the seed fixes the tokens), its tokens in none of the logs
        DemoData data = DemoData.generate(DEVICES, REQUESTS, 42L, 0L);
        assertThat(data.tokens).hasSizeGreaterThan(DEVICES);
        assertThat(logs.toString()).isNotEmpty();
        assertThat(DemoData.leakedTokens(logs.toString(), data.tokens)).isZero();
        assertThat(DemoData.leakedTokens(out, data.tokens)).isZero();
        assertThat(code).isZero();
    }
}
