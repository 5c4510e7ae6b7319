package io.pushline.cli;

import io.pushline.cluster.FlinkCli;
import io.pushline.cluster.FlinkRest;
import io.pushline.cluster.LocalCluster;
import io.pushline.cluster.Role;
import io.pushline.common.Cli;
import io.pushline.common.JobOptionArgs;
import io.pushline.common.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./pushline cluster up|down|status|submit|stop|kill}: a real Flink standalone session
 * cluster (JobManager and two TaskManagers as JVMs of their own) with Kafka and HBase as processes.
 */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = {
            "A real Flink session cluster on this machine (JobManager, two TaskManagers, Kafka,"
                    + " HBase: each its own process; web UI http://localhost:8081); files under"
                    + " .pushline/cluster."
        },
        subcommands = {
            ClusterCommand.Up.class,
            ClusterCommand.Down.class,
            ClusterCommand.Status.class,
            ClusterCommand.Submit.class,
            ClusterCommand.Stop.class,
            ClusterCommand.Kill.class
        })
final class ClusterCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.missingSubcommand(spec);
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description = "Start the cluster (or the processes of it that are not running).")
    static final class Up implements Callable<Integer> {
        @Option(
                names = "--s3",
                description =
                        "Also start s3proxy (a real S3 API) and a ZooKeeper, and keep checkpoints,"
                                + " savepoints and HA metadata in s3://pushline (kept by later"
                                + " ups until down --purge).")
        boolean s3;

        @Override
        public Integer call() throws Exception {
            LocalCluster cluster = LocalCluster.standard();
            if (s3) {
                cluster.enableS3();
            }
            System.out.println("Starting the cluster under " + cluster.layout().home() + " ...");
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
            if (cluster.layout().s3()) {
                System.out.printf(
                        "Checkpoints %s, savepoints %s, HA metadata s3://pushline/ha on s3proxy"
                                + " %s (credentials in %s).%n",
                        cluster.layout().checkpointsUri(),
                        cluster.layout().savepointsUri(),
                        cluster.layout().s3Endpoint(),
                        cluster.layout().home().resolve("s3-credentials"));
            }
            return 0;
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Stop the cluster.")
    static final class Down implements Callable<Integer> {
        @Option(names = "--purge", description = "Also delete its data, checkpoints and logs.")
        boolean purge;

        @Override
        public Integer call() throws Exception {
            LocalCluster.standard().down(purge, System.out);
            return 0;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = {
                "Each process, the TaskManagers and slots, the jobs.",
                "Exit code 3 when a process is not running."
            })
    static final class Status implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            LocalCluster cluster = LocalCluster.standard();
            int running = 0;
            for (Role role : cluster.layout().roles()) {
                Optional<ProcessHandle> p = cluster.process(role);
                if (p.isPresent()) {
                    running++;
                }
                System.out.printf(
                        "%-14s %s%n",
                        role.id(),
                        p.map(h -> "running (pid " + h.pid() + ")").orElse("not running"));
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
            return running == cluster.layout().roles().size() ? 0 : 3;
        }
    }

    @Command(
            name = "submit",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = {
                "Submit a job's shaded jar with Flink's own CLI.",
                "Any other --key value is a job option (./pushline help options)."
            })
    static final class Submit extends JobOptionArgs.Command implements Callable<Integer> {
        @Parameters(paramLabel = "JOB", description = "dispatch, receipts, longconn or gateway")
        String job;

        @Option(
                names = "--from-savepoint",
                paramLabel = "PATH",
                description = "Start from this savepoint.")
        String savepoint;

        @Option(
                names = "--jar",
                paramLabel = "PATH",
                description = "Submit this jar instead of the job's built one.")
        Path jar;

        @Override
        public Integer call() throws Exception {
            if (!FlinkCli.JOBS.contains(job)) {
                throw new UsageException("cluster submit: JOB is one of " + FlinkCli.JOBS);
            }
            Path jarFile = jar == null ? null : jar.toAbsolutePath();
            if (jarFile != null && !Files.isRegularFile(jarFile)) {
                throw new UsageException("--jar: no file at " + jarFile);
            }
            LocalCluster cluster = LocalCluster.standard();
            if (!cluster.rest().up()) {
                throw new UsageException(
                        "the cluster's JobManager does not answer at "
                                + cluster.layout().webUi()
                                + ": run ./pushline cluster up first");
            }
            // dispatch as k8s/base/dispatch.yaml runs it (live traffic), as ./pushline run does
            java.util.List<String> options = new java.util.ArrayList<>();
            if (job.equals("dispatch")) {
                options.addAll(RunCommand.LIVE_DISPATCH);
            }
            // the gateway to the emulators of a running local up, unless vendors are given
            if (job.equals("gateway")
                    && jobOptions().stream().noneMatch(o -> o.startsWith("--gateway."))) {
                options.addAll(
                        io.pushline.common.LocalEnv.gatewayOptions(
                                io.pushline.local.LocalStack.defaultDir()));
            }
            options.addAll(jobOptions());
            String id =
                    new FlinkCli(cluster.layout())
                            .submit(job, jarFile, options, savepoint, System.out);
            System.out.printf(
                    "%s job %s submitted: %s/#/job/running/%s/overview%n",
                    job, id, cluster.layout().webUi(), id);
            return 0;
        }
    }

    @Command(
            name = "stop",
            mixinStandardHelpOptions = true,
            description = "Stop a job with a savepoint.")
    static final class Stop implements Callable<Integer> {
        @Parameters(paramLabel = "JOB_ID")
        String jobId;

        @Override
        public Integer call() throws Exception {
            LocalCluster cluster = LocalCluster.standard();
            String path = new FlinkCli(cluster.layout()).stopWithSavepoint(jobId, System.out);
            System.out.println(
                    "Stopped with a savepoint. Resume: ./pushline cluster submit JOB"
                            + " --from-savepoint "
                            + path);
            return 0;
        }
    }

    @Command(
            name = "kill",
            mixinStandardHelpOptions = true,
            description = "kill -9 a process of the cluster (cluster up starts it again).")
    static final class Kill implements Callable<Integer> {
        @Parameters(
                paramLabel = "PROCESS",
                description = "kafka, hbase, jobmanager, taskmanager-1 or taskmanager-2")
        String process;

        @Override
        public Integer call() throws Exception {
            Role role;
            try {
                role = Role.parse(process);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            boolean was = LocalCluster.standard().kill(role);
            System.out.println(
                    was
                            ? "killed "
                                    + role.id()
                                    + " (SIGKILL); ./pushline cluster up starts it again"
                            : role.id() + " was not running");
            return 0;
        }
    }
}
