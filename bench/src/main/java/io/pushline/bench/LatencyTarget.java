package io.pushline.bench;

import io.pushline.cluster.ClusterLayout;
import io.pushline.cluster.FlinkCli;
import io.pushline.cluster.LocalCluster;
import io.pushline.local.EmbeddedKafka;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.kafka.clients.admin.Admin;

/**
 * Where {@code bench latency} runs its dispatch jobs: the embedded stack (a MiniCluster in this
 * JVM, production's checkpoint settings) or {@code pushline cluster} (Kafka, HBase, a JobManager
 * and two TaskManagers as processes of their own, the job's shaded jar submitted with Flink's CLI,
 * the cluster's {@code config.yaml} made from production's).
 */
abstract class LatencyTarget implements AutoCloseable {
    /** A running job: its id, the REST port of its cluster, and how to cancel it. */
    record Job(String id, int rest, AutoCloseable cancel) {}

    abstract String kafka();

    /** The campaign's users in the uid dictionary and the segment 'everyone'. */
    abstract void everyone(int devices) throws Exception;

    /** Starts the dispatch job, pacing on or off, with a group and transactions of its own. */
    abstract Job start(boolean pacing, String id) throws Exception;

    /** Deletes the topics and creates them again, empty. */
    abstract void recreate(List<String> topics) throws Exception;

    /**
     * Before phase 0: lets the JVMs of the stack finish their warm-up, as a TaskManager that has
     * run for a while has.
     */
    abstract void warmUp() throws InterruptedException;

    /** What this round's CPU figure covers. */
    abstract ProcessCpu cpu();

    static LatencyTarget embedded(Map<String, String> production, Map<String, String> overrides)
            throws Exception {
        return new Embedded(production, overrides);
    }

    static LatencyTarget cluster(Map<String, String> overrides) throws Exception {
        return new Cluster(overrides);
    }

    /** The embedded stack in this JVM, a MiniCluster per job. */
    private static final class Embedded extends LatencyTarget {
        private final Path dir;
        private final LocalStack stack;
        private final Map<String, String> production;
        private final Map<String, String> overrides;

        Embedded(Map<String, String> production, Map<String, String> overrides) throws Exception {
            this.production = production;
            this.overrides = overrides;
            dir = Files.createTempDirectory("pushline-latency");
            stack = LocalStack.start(dir.resolve("stack"), LocalStack.DEFAULT_START_TIMEOUT);
            stack.kafka().recreateTopics(Topics.all(), 2);
        }

        @Override
        String kafka() {
            return stack.kafkaBootstrap();
        }

        @Override
        void everyone(int devices) throws Exception {
            CampaignBench.everyone(stack, LatencyJob.NAMESPACE, devices);
        }

        @Override
        Job start(boolean pacing, String id) throws Exception {
            int rest = BenchCluster.freePort();
            JobClient job =
                    LatencyJob.start(
                            stack,
                            dir.resolve("flink-" + id),
                            production,
                            pacing,
                            id,
                            rest,
                            overrides);
            return new Job(job.getJobID().toString(), rest, () -> job.cancel().get());
        }

        @Override
        void recreate(List<String> topics) throws Exception {
            stack.kafka().recreateTopics(topics, 2);
        }

        @Override
        void warmUp() throws InterruptedException {
            JitSettle.await(java.time.Duration.ofMinutes(5)); // the stack and the job: this JVM
        }

        @Override
        ProcessCpu cpu() {
            return ProcessCpu.start(); // the stack and the job run in this JVM
        }

        @Override
        public void close() throws Exception {
            try {
                stack.close();
            } finally {
                LocalStack.deleteRecursively(dir);
            }
        }
    }

    /** {@code pushline cluster} under .pushline/bench/latency-cluster, started afresh. */
    private static final class Cluster extends LatencyTarget {
        private final LocalCluster cluster;
        private final Map<String, String> overrides;
        private final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

        Cluster(Map<String, String> overrides) throws Exception {
            this.overrides = overrides;
            Path home = LocalStack.defaultDir().resolve("bench").resolve("latency-cluster");
            cluster = new LocalCluster(new ClusterLayout(home, ClusterLayout.findRoot()));
            cluster.down(true, quiet); // every round from empty topics and tables
            System.out.println("  starting pushline cluster under " + home);
            cluster.up(System.out);
        }

        @Override
        String kafka() {
            return cluster.layout().kafkaBootstrap();
        }

        @Override
        void everyone(int devices) throws Exception {
            try (Connection c = cluster.hbaseLoadConnection()) {
                CampaignBench.everyone(c, LatencyJob.NAMESPACE, devices);
            }
        }

        @Override
        Job start(boolean pacing, String id) throws Exception {
            List<String> args = new ArrayList<>();
            LatencyJob.options(pacing, id, overrides)
                    .forEach(
                            (k, v) -> {
                                args.add("--" + k);
                                args.add(v);
                            });
            FlinkCli cli = new FlinkCli(cluster.layout());
            String jobId = cli.submit("dispatch", args, null, null);
            return new Job(
                    jobId,
                    ClusterLayout.FLINK_REST_PORT,
                    () -> cli.run(List.of("cancel", jobId), quiet));
        }

        @Override
        void recreate(List<String> topics) throws Exception {
            try (Admin admin = cluster.kafkaAdmin()) {
                EmbeddedKafka.recreateTopics(admin, topics, 2);
            }
        }

        @Override
        void warmUp() throws InterruptedException {
            // the TaskManagers' compilers cannot be asked from here: give them a minute
            System.out.println("  warming up: 60 s");
            Thread.sleep(60_000);
        }

        @Override
        ProcessCpu cpu() {
            return ProcessCpu.machine(); // Kafka, HBase and Flink run in processes of their own
        }

        @Override
        public void close() throws Exception {
            System.out.println("  stopping the cluster (files kept until the next round)");
            cluster.down(false, quiet);
        }
    }
}
