package io.pushline.cli;

import io.pushline.cluster.FlinkCli;
import io.pushline.cluster.FlinkRest;
import io.pushline.cluster.LocalCluster;
import io.pushline.cluster.Role;
import io.pushline.common.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code ./pushline cluster up|down|status|submit|stop|kill}: a real Flink standalone session
 * cluster (JobManager and two TaskManagers as JVMs of their own) with Kafka and HBase as processes.
 */
final class ClusterCommand {
    static final String USAGE =
            "usage: ./pushline cluster up | down [--purge] | status"
                    + " | submit dispatch|receipts|longconn [--from-savepoint PATH] [--jar PATH]"
                    + " [--key value ...]"
                    + " | stop JOB_ID | kill kafka|hbase|jobmanager|taskmanager-1|taskmanager-2";

    private ClusterCommand() {}

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException(USAGE);
        }
        LocalCluster cluster = LocalCluster.standard();
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "up" -> {
                noArgs(rest, "up");
                System.out.println(
                        "Starting the cluster under " + cluster.layout().home() + " ...");
                long t0 = System.nanoTime();
                cluster.up(System.out);
                System.out.printf(
                        "Up in %.1f s. Flink web UI: %s. Kafka %s, HBase (ZooKeeper) %s, written to"
                                + " local.env for the other commands.%n"
                                + "Submit a job: ./pushline cluster submit dispatch. Logs: %s%n",
                        (System.nanoTime() - t0) / 1e9,
                        cluster.layout().webUi(),
                        cluster.layout().kafkaBootstrap(),
                        cluster.layout().zkQuorum(),
                        cluster.layout().logs());
                return 0;
            }
            case "down" -> {
                boolean purge = rest.equals(List.of("--purge"));
                if (!purge) {
                    noArgs(rest, "down");
                }
                cluster.down(purge, System.out);
                return 0;
            }
            case "status" -> {
                noArgs(rest, "status");
                return status(cluster);
            }
            case "submit" -> {
                return submit(cluster, rest);
            }
            case "stop" -> {
                if (rest.size() != 1) {
                    throw new UsageException("usage: ./pushline cluster stop JOB_ID");
                }
                String path =
                        new FlinkCli(cluster.layout()).stopWithSavepoint(rest.get(0), System.out);
                System.out.println(
                        "Stopped with a savepoint. Resume: ./pushline cluster submit JOB"
                                + " --from-savepoint "
                                + path);
                return 0;
            }
            case "kill" -> {
                if (rest.size() != 1) {
                    throw new UsageException(USAGE);
                }
                Role role;
                try {
                    role = Role.parse(rest.get(0));
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                boolean was = cluster.kill(role);
                System.out.println(
                        was
                                ? "killed "
                                        + role.id()
                                        + " (SIGKILL); ./pushline cluster up starts it again"
                                : role.id() + " was not running");
                return 0;
            }
            default -> throw new UsageException(USAGE);
        }
    }

    private static int submit(LocalCluster cluster, List<String> rest) throws Exception {
        if (rest.isEmpty() || !FlinkCli.JOBS.contains(rest.get(0))) {
            throw new UsageException(
                    "usage: ./pushline cluster submit dispatch|receipts|longconn"
                            + " [--from-savepoint PATH] [--jar PATH] [--key value ...]");
        }
        if (!cluster.rest().up()) {
            throw new UsageException(
                    "the cluster's JobManager does not answer at "
                            + cluster.layout().webUi()
                            + ": run ./pushline cluster up first");
        }
        String savepoint = null;
        Path jar = null;
        List<String> options = new ArrayList<>();
        for (int i = 1; i < rest.size(); i++) {
            if (rest.get(i).equals("--from-savepoint") && i + 1 < rest.size()) {
                savepoint = rest.get(++i);
            } else if (rest.get(i).equals("--jar") && i + 1 < rest.size()) {
                jar = Path.of(rest.get(++i)).toAbsolutePath();
                if (!Files.isRegularFile(jar)) {
                    throw new UsageException("--jar: no file at " + jar);
                }
            } else {
                options.add(rest.get(i));
            }
        }
        String id =
                new FlinkCli(cluster.layout())
                        .submit(rest.get(0), jar, options, savepoint, System.out);
        System.out.printf(
                "%s job %s submitted: %s/#/job/running/%s/overview%n",
                rest.get(0), id, cluster.layout().webUi(), id);
        return 0;
    }

    private static int status(LocalCluster cluster) throws Exception {
        int running = 0;
        for (Role role : Role.values()) {
            Optional<ProcessHandle> p = cluster.process(role);
            if (p.isPresent()) {
                running++;
            }
            System.out.printf(
                    "%-14s %s%n",
                    role.id(), p.map(h -> "running (pid " + h.pid() + ")").orElse("not running"));
        }
        FlinkRest rest = cluster.rest();
        if (rest.up()) {
            var overview = rest.get("/overview");
            System.out.printf(
                    "Flink %s: %d TaskManagers, %d slots (%d free); web UI %s%n",
                    overview.path("flink-version").asText(),
                    overview.path("taskmanagers").asInt(),
                    overview.path("slots-total").asInt(),
                    overview.path("slots-available").asInt(),
                    cluster.layout().webUi());
            for (FlinkRest.Job j : rest.jobs()) {
                System.out.printf("  job %s %-10s %s%n", j.id(), j.state(), j.name());
            }
        }
        return running == Role.values().length ? 0 : 3;
    }

    private static void noArgs(List<String> rest, String sub) {
        if (!rest.isEmpty()) {
            throw new UsageException(
                    "unknown argument '" + rest.get(0) + "' for cluster " + sub + "; " + USAGE);
        }
    }
}
