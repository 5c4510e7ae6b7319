package io.pushline.serve;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs the dry run in a JVM of its own (the State Processor API needs Flink's runtime; a dry run's
 * memory is its own) and hands back its JSON: {@code ./pushline audience dry-run ... --json} in a
 * checkout, or {@code java -cp <serve's jar> io.pushline.serve.app.DryRunMain ...} when serve runs
 * from its own jar ({@link #command}). One at a time: a second request waits for the first.
 */
final class ProcessDryRunner implements DryRunner {
    static final long TIMEOUT_MINUTES = 10;

    /** The dry run's entry in serve's own jar (module serve/app). */
    static final String IN_JAR_MAIN = "io.pushline.serve.app.DryRunMain";

    private final List<String> command;
    private final List<String> options;
    private final java.util.Map<String, String> environment;
    private final Semaphore one = new Semaphore(1);

    /**
     * @param command what starts a dry run ({@link #command})
     * @param options passed on ({@code --key value}: HBase, Kafka, the checkpoint folder)
     */
    ProcessDryRunner(List<String> command, List<String> options) {
        this(command, options, java.util.Map.of());
    }

    /**
     * @param environment added to the child's environment: the values of the security settings that
     *     {@code options} name as {@code ${env:NAME}}, kept out of its command line
     */
    ProcessDryRunner(
            List<String> command, List<String> options, java.util.Map<String, String> environment) {
        this.command = List.copyOf(command);
        this.options = List.copyOf(options);
        this.environment = java.util.Map.copyOf(environment);
    }

    /** The command line a dry run starts with (for tests: no secret in it). */
    List<String> commandLine(String expression, String msgType) {
        List<String> cmd = new ArrayList<>(command);
        cmd.add("--expr");
        cmd.add(expression);
        cmd.add("--msg-type");
        cmd.add(msgType);
        cmd.add("--json");
        cmd.addAll(options);
        return cmd;
    }

    /**
     * The command that starts a dry run: this JVM's own classpath when it holds the dry run
     * (serve's jar: nothing but a JDK needed), else the {@code pushline} launcher of the checkout.
     */
    static List<String> command(Path launcher) {
        try {
            Class.forName(IN_JAR_MAIN, false, ProcessDryRunner.class.getClassLoader());
        } catch (ClassNotFoundException notInThisJar) {
            return List.of(launcher.toString(), "audience", "dry-run");
        }
        return List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                IN_JAR_MAIN);
    }

    @Override
    public String run(String expression, String msgType) throws Exception {
        List<String> cmd = commandLine(expression, msgType);
        if (!one.tryAcquire(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            throw new DryRunException("another dry run is still going; try again later");
        }
        try {
            ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(false);
            b.environment().putAll(environment);
            Process p = b.start();
            p.getOutputStream().close();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread drain = new Thread(() -> copy(p.getErrorStream(), err), "dry-run-stderr");
            drain.setDaemon(true);
            drain.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new DryRunException(
                        "the dry run took longer than " + TIMEOUT_MINUTES + " min");
            }
            drain.join(1_000);
            String text = new String(out, StandardCharsets.UTF_8).strip();
            // The JSON answer is the last line; the launcher may print a build note first.
            int nl = text.lastIndexOf('\n');
            String last = nl < 0 ? text : text.substring(nl + 1);
            if (last.startsWith("{")) {
                return last;
            }
            String why = new String(err.toByteArray(), StandardCharsets.UTF_8).strip();
            throw new DryRunException(
                    "the dry run failed (exit " + p.exitValue() + "): " + tail(why, 600));
        } finally {
            one.release();
        }
    }

    private static String tail(String s, int max) {
        return s.length() <= max ? s : "..." + s.substring(s.length() - max);
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try {
            in.transferTo(out);
        } catch (IOException e) {
            // the process ended
        }
    }
}
