package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.serve.ServeMain;
import io.pushline.serve.ServeOptions;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;

/**
 * {@code ./pushline demo --keep}: the dispatch job runs with its control topics open ({@code
 * dispatch.bounded.keep-running}), so it decides the demo's input and stays up with its gate state
 * in its checkpoints; after the checks the stack, the job and the console stay up until Ctrl-C.
 */
final class DemoKeep {
    /** Output topics unchanged this long, with every decision there: the input is decided. */
    static final long QUIET_MS = 10_000;

    /**
     * No output for this long before every decision is there: check what there is. Long: a catch-up
     * run commits nothing until its input's end moves event time (minutes at the default size).
     */
    static final long STUCK_MS = 600_000;

    private DemoKeep() {}

    /**
     * Waits until the job has decided and paced its input: at least {@code expected} decisions
     * committed and no output topic moved for {@link #QUIET_MS}, or nothing moved for {@link
     * #STUCK_MS} (the checks then say what is missing).
     */
    static void awaitDecided(String bootstrap, JobClient job, long expected, long startNanos)
            throws Exception {
        var result = job.getJobExecutionResult();
        long last = -1;
        long changed = System.currentTimeMillis();
        while (true) {
            long decisions = DemoTopics.committedCount(bootstrap, Topics.DECISIONS);
            long all = decisions;
            for (Vendor v : Vendor.values()) {
                all += DemoTopics.committedCount(bootstrap, v.topic());
            }
            long now = System.currentTimeMillis();
            if (all != last) {
                last = all;
                changed = now;
            }
            DemoCommand.progress(startNanos, job, decisions, expected);
            if (decisions >= expected && now - changed >= QUIET_MS) {
                return;
            }
            if (now - changed >= STUCK_MS) {
                System.out.printf(
                        "      no new output for %d s at ~%,d of %,d decisions: checking what"
                                + " there is%n",
                        STUCK_MS / 1000, decisions, expected);
                return;
            }
            try {
                result.get(2, TimeUnit.SECONDS);
                throw new IllegalStateException(
                        "the dispatch job ended, but with dispatch.bounded.keep-running it should"
                                + " keep running");
            } catch (TimeoutException stillRunning) {
                // as it should
            }
        }
    }

    /**
     * Leaves everything up: writes {@code local.env} (the stack, the job's checkpoints and rules)
     * for the other commands, starts the console on {@code port} (a free one when it is taken),
     * prints how to get in, and waits for Ctrl-C; then stops the console and the job and puts the
     * earlier {@code local.env} back.
     */
    static int hold(
            LocalStack stack, JobClient job, Path checkpoints, Path rules, int port, int code)
            throws Exception {
        Path home = LocalStack.defaultDir();
        Path envFile = home.resolve("local.env");
        String previous =
                Files.isRegularFile(envFile)
                        ? Files.readString(envFile, StandardCharsets.UTF_8)
                        : null;
        Files.createDirectories(home);
        Files.writeString(
                envFile,
                stack.envLines()
                        + "DISPATCH_CHECKPOINTS="
                        + checkpoints
                        + "\nDISPATCH_RULES="
                        + rules
                        + "\n",
                StandardCharsets.UTF_8);
        Configuration conf = new Configuration();
        conf.set(CommonOptions.KAFKA_BOOTSTRAP, stack.kafkaBootstrap());
        conf.set(CommonOptions.HBASE_ZK_QUORUM, stack.hbaseZkQuorum());
        conf.set(ServeOptions.DISPATCH_CHECKPOINTS, checkpoints.toString());
        conf.set(ServeOptions.PORT, port);
        ServeMain.Running console;
        try {
            console = ServeMain.start(conf, home);
        } catch (Exception e) {
            if (port == 0 || !portTaken(e)) {
                throw e;
            }
            System.out.printf("      port %d is taken: the console takes a free one%n", port);
            conf.set(ServeOptions.PORT, 0);
            console = ServeMain.start(conf, home);
        }
        ServeMain.Running serving = console;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    System.out.println("Stopping the demo ...");
                                    serving.close();
                                    try {
                                        job.cancel().get(30, TimeUnit.SECONDS);
                                    } catch (Exception ignored) {
                                        // going down with the JVM anyway
                                    }
                                    restore(envFile, previous);
                                    stopped.countDown();
                                },
                                "pushline-demo-stop"));
        System.out.println();
        System.out.println("The demo stays up (Ctrl-C stops it):");
        System.out.printf(
                "  console   http://localhost:%d/console  (log in with %s)%n",
                serving.port(), serving.tokenNote());
        System.out.printf(
                "  app API   http://localhost:%d/v1/  (Authorization: Bearer SECRET, with %s)%n",
                serving.port(), serving.keyNote());
        System.out.printf(
                "  dispatch  job %s, its input decided; the console's dry run reads its newest"
                        + " checkpoint under %s%n",
                job.getJobID(), checkpoints);
        System.out.printf(
                "  stack     Kafka %s, HBase %s, written to %s for ./pushline audience, report,"
                        + " serve%n",
                stack.kafkaBootstrap(), stack.hbaseZkQuorum(), envFile);
        System.out.printf(
                "  try       the expression '%s' with msgType promo, or ./pushline audience"
                        + " dry-run --expr 'sports AND NOT churned' --msg-type promo%n",
                DemoData.CAMPAIGN);
        System.out.flush();
        stopped.await();
        return code;
    }

    /** Javalin wraps it twice: JavalinBindException, IOException, BindException. */
    static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    private static void restore(Path envFile, String previous) {
        try {
            if (previous == null) {
                Files.deleteIfExists(envFile);
            } else {
                Files.writeString(envFile, previous, StandardCharsets.UTF_8);
            }
        } catch (Exception ignored) {
            // best effort: a stale file only points at closed ports
        }
    }
}
