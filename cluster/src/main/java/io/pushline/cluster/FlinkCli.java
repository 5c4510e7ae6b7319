package io.pushline.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flink's own command-line client ({@code CliFrontend}, what {@code bin/flink} runs) against the
 * cluster: submit a job's shaded jar, stop a job with a savepoint. Runs as a JVM of its own with
 * the cluster's configuration and Flink's jars, as a user's {@code bin/flink} would.
 */
public final class FlinkCli {
    /** The streaming jobs that {@code cluster submit} knows how to point at Kafka and HBase. */
    public static final List<String> JOBS = List.of("dispatch", "receipts", "longconn", "gateway");

    private static final Pattern JOB_ID = Pattern.compile("JobID ([0-9a-f]{32})");
    private static final Pattern SAVEPOINT = Pattern.compile("Savepoint completed\\. Path: (\\S+)");

    private final ClusterLayout layout;

    public FlinkCli(ClusterLayout layout) {
        this.layout = layout;
    }

    /**
     * Submits a job detached; Kafka and HBase of the cluster come first, {@code args} after them
     * (later ones win). Returns the job id.
     */
    public String submit(String job, List<String> args, String savepoint, PrintStream echo)
            throws IOException, InterruptedException {
        return submit(job, null, args, savepoint, echo);
    }

    /**
     * As above with the job's shaded jar at {@code jar} (another version of it: an upgrade, or a
     * rollback); null: the one this checkout built.
     */
    public String submit(
            String job, Path jar, List<String> args, String savepoint, PrintStream echo)
            throws IOException, InterruptedException {
        if (!JOBS.contains(job)) {
            throw new IllegalArgumentException(
                    "unknown job '" + job + "': cluster submit runs one of " + JOBS);
        }
        List<String> cmd = new ArrayList<>();
        cmd.add("run");
        cmd.add("-d");
        if (savepoint != null) {
            cmd.add("-s");
            cmd.add(savepoint);
        }
        if (jar != null && !Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no jar at " + jar);
        }
        cmd.add((jar != null ? jar : layout.jobJar(job)).toString());
        cmd.add("--kafka.bootstrap-servers");
        cmd.add(layout.kafkaBootstrap());
        cmd.add("--hbase.zookeeper.quorum");
        cmd.add(layout.zkQuorum());
        cmd.addAll(args);
        String out = run(cmd, echo);
        Matcher m = JOB_ID.matcher(out);
        if (!m.find()) {
            throw new IOException("the Flink client printed no job id; see above");
        }
        return m.group(1);
    }

    /** Stops a job with a savepoint under the cluster's savepoint folder; returns its path. */
    public String stopWithSavepoint(String jobId, PrintStream echo)
            throws IOException, InterruptedException {
        String out = run(List.of("stop", "--savepointPath", layout.savepointsUri(), jobId), echo);
        Matcher m = SAVEPOINT.matcher(out);
        if (!m.find()) {
            throw new IOException("the Flink client printed no savepoint path; see above");
        }
        return m.group(1);
    }

    /** Runs {@code bin/flink ARGS}, echoing its output; fails on a non-zero exit. */
    public String run(List<String> flinkArgs, PrintStream echo)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Processes.java());
        cmd.addAll(ClusterConfig.FLINK_JVM_OPENS);
        Path log4j = layout.conf().resolve("log4j2.properties");
        cmd.add("-Dlog.file=" + layout.logs().resolve("client.log"));
        cmd.add("-Dlog4j.configurationFile=" + log4j);
        cmd.add("-Dlog4j2.configurationFile=" + log4j);
        cmd.add("-cp");
        cmd.add(layout.flinkClasspath());
        cmd.add("org.apache.flink.client.cli.CliFrontend");
        cmd.addAll(flinkArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("FLINK_CONF_DIR", layout.conf().toString());
        pb.environment().putAll(new LocalCluster(layout).flinkEnvironment());
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        try (BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            boolean hookNoise = false;
            while ((line = r.readLine()) != null) {
                out.append(line).append('\n');
                hookNoise = isHookNoise(line, hookNoise);
                if (echo != null && !hookNoise) {
                    echo.println(line);
                }
            }
        }
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IOException(
                    "flink " + flinkArgs.get(0) + " failed (exit " + exit + "); see above");
        }
        return out.toString();
    }

    /**
     * Whether a line belongs to the stack trace Hadoop's shutdown hook prints as the client exits:
     * the job's main loaded HBase's client in the user-code class loader, which the client has
     * closed by then. The job was submitted; the trace says nothing about it.
     */
    static boolean isHookNoise(String line, boolean inNoise) {
        if (line.startsWith("Exception in thread")
                && line.contains("org/apache/hadoop/util/ShutdownHookManager")) {
            return true;
        }
        return inNoise
                && (line.startsWith("\t")
                        || line.startsWith("    ")
                        || line.startsWith("Caused by:"));
    }
}
