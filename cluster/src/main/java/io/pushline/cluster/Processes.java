package io.pushline.cluster;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Starts the cluster's JVMs detached from the caller (their own session, so a Ctrl-C in the
 * terminal that ran {@code up} does not reach them), remembers them in pid files, and finds or
 * stops them again. A pid counts as ours only while its command line carries the role's marker, so
 * a recycled pid is never signalled.
 */
final class Processes {
    private final ClusterLayout layout;

    Processes(ClusterLayout layout) {
        this.layout = layout;
    }

    static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The marker property every process of this cluster carries. */
    String marker(Role role) {
        return "-Dpushline.cluster.role=" + layout.home() + "/" + role.id();
    }

    Path logFile(Role role) {
        return layout.logs().resolve(role.id() + ".log");
    }

    Path outFile(Role role) {
        return layout.logs().resolve(role.id() + ".out");
    }

    /** Starts {@code java <jvm> <marker> <logging> -cp CP <main args>} detached. */
    ProcessHandle spawn(Role role, List<String> jvm, String classpath, List<String> mainAndArgs)
            throws IOException {
        return spawn(role, jvm, classpath, mainAndArgs, Map.of());
    }

    /** As above with these environment variables added (secrets go here, never in arguments). */
    ProcessHandle spawn(
            Role role,
            List<String> jvm,
            String classpath,
            List<String> mainAndArgs,
            Map<String, String> env)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid");
        cmd.add(java());
        cmd.addAll(jvm);
        cmd.add(marker(role));
        cmd.add("-Dlog.file=" + logFile(role));
        Path log4j = layout.conf().resolve("log4j2.properties");
        cmd.add("-Dlog4j.configurationFile=" + log4j);
        cmd.add("-Dlog4j2.configurationFile=" + log4j);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(outFile(role).toFile()));
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.directory(layout.home().toFile());
        Process p = pb.start();
        Files.writeString(
                layout.pids().resolve(role.id() + ".pid"),
                Long.toString(p.pid()),
                StandardCharsets.UTF_8);
        return p.toHandle();
    }

    /** The running process of this role, if any. */
    Optional<ProcessHandle> find(Role role) {
        Path pidFile = layout.pids().resolve(role.id() + ".pid");
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        String marker = marker(role);
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false));
    }

    /** SIGKILL, as a crash would; waits until the process is gone. */
    boolean kill(Role role) {
        Optional<ProcessHandle> h = find(role);
        h.ifPresent(
                p -> {
                    p.destroyForcibly();
                    awaitExit(p, Duration.ofSeconds(30));
                });
        return h.isPresent();
    }

    /** SIGTERM and a wait of up to {@code grace}, then SIGKILL. */
    boolean stop(Role role, Duration grace) {
        Optional<ProcessHandle> h = find(role);
        h.ifPresent(
                p -> {
                    p.destroy();
                    if (!awaitExit(p, grace)) {
                        p.destroyForcibly();
                        awaitExit(p, Duration.ofSeconds(30));
                    }
                });
        return h.isPresent();
    }

    static boolean awaitExit(ProcessHandle p, Duration timeout) {
        try {
            p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            return !p.isAlive();
        }
    }

    /** Runs a short-lived JVM to its end and returns what it printed; fails on a non-zero exit. */
    String runToEnd(List<String> cmd) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        full.add(java());
        full.addAll(cmd);
        ProcessBuilder pb = new ProcessBuilder(full);
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IOException("exit " + exit + " from " + mainClass(cmd) + ":\n" + out.strip());
        }
        return out;
    }

    private static String mainClass(List<String> cmd) {
        for (String s : cmd) {
            if (!s.startsWith("-") && s.contains(".") && !s.contains("/")) {
                return s;
            }
        }
        return cmd.toString();
    }

    /** Whether nothing listens on the loopback port. */
    static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
