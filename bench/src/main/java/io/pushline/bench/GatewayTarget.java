package io.pushline.bench;

import io.pushline.cluster.ClusterLayout;
import io.pushline.cluster.FlinkCli;
import io.pushline.cluster.FlinkRest;
import io.pushline.cluster.LocalCluster;
import io.pushline.cluster.Role;
import io.pushline.common.OptionsParser;
import io.pushline.gateway.GatewayJob;
import io.pushline.gateway.GatewayOptions;
import io.pushline.local.EmbeddedKafka;
import io.pushline.local.LocalStack;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;

/**
 * Where {@code bench gateway} runs the gateway job: embedded (Kafka and a MiniCluster of two
 * TaskManagers in this JVM; the kill terminates one and starts another) or {@code pushline cluster}
 * (Kafka, a JobManager and two TaskManagers as processes of their own, the job's shaded jar
 * submitted with Flink's CLI under the cluster's production configuration; the kill is {@code kill
 * -9} of taskmanager-1, started again once the JobManager let it go).
 */
abstract class GatewayTarget implements AutoCloseable {
    abstract String kafka();

    abstract void recreate(List<String> topics) throws Exception;

    /** Starts the gateway job with these options (Kafka's given by the target); its id. */
    abstract String start(Map<String, String> options) throws Exception;

    abstract FlinkRest rest();

    /** Kills one TaskManager and starts another; false when no kill happened. */
    abstract boolean kill() throws Exception;

    /** Null while the job runs, else how it ended. */
    abstract String ended() throws Exception;

    abstract void cancel() throws Exception;

    static List<String> args(Map<String, String> options) {
        List<String> args = new ArrayList<>();
        options.forEach(
                (k, v) -> {
                    args.add("--" + k);
                    args.add(v);
                });
        return args;
    }

    /** Kafka and two TaskManagers in this JVM. */
    static final class Embedded extends GatewayTarget {
        private final EmbeddedKafka kafka;
        private final MiniCluster cluster;
        private final Configuration conf;
        private final URI rest;
        private JobClient job;

        Embedded(Path dir) throws Exception {
            kafka = EmbeddedKafka.start(dir.resolve("kafka"));
            conf = BenchCluster.configuration(dir.resolve("flink"));
            // as k8s/base/gateway.yaml runs it
            conf.setString("state.backend.type", "hashmap");
            conf.setString("execution.checkpointing.interval", "1 s");
            conf.setString("restart-strategy.type", "fixed-delay");
            conf.setString("restart-strategy.fixed-delay.attempts", "20");
            conf.setString("restart-strategy.fixed-delay.delay", "1 s");
            cluster =
                    new MiniCluster(
                            new MiniClusterConfiguration.Builder()
                                    .setConfiguration(conf)
                                    .setNumTaskManagers(2)
                                    .setNumSlotsPerTaskManager(1)
                                    .build());
            cluster.start();
            rest = cluster.getRestAddress().get();
            System.out.println("  embedded: Kafka and two TaskManagers; Flink REST " + rest);
        }

        @Override
        String kafka() {
            return kafka.bootstrapServers();
        }

        @Override
        void recreate(List<String> topics) throws Exception {
            kafka.recreateTopics(topics, 2);
        }

        @Override
        String start(Map<String, String> options) throws Exception {
            Map<String, String> all = new java.util.LinkedHashMap<>(options);
            all.put("kafka.bootstrap-servers", kafka());
            Configuration o =
                    OptionsParser.parse(
                            args(all).toArray(new String[0]), GatewayOptions.accepted());
            GatewayOptions.vendors(o);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createRemoteEnvironment(
                            rest.getHost(), rest.getPort(), conf);
            env.setParallelism(2);
            job = GatewayJob.start(env, o);
            return job.getJobID().toString();
        }

        @Override
        FlinkRest rest() {
            return FlinkRest.at(rest);
        }

        @Override
        boolean kill() throws Exception {
            cluster.terminateTaskManager(0).get();
            cluster.startTaskManager();
            return true;
        }

        @Override
        String ended() throws Exception {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                return null;
            }
            try {
                job.getJobExecutionResult().get();
                return "finished";
            } catch (Exception e) {
                return "failed: " + e;
            }
        }

        @Override
        void cancel() throws Exception {
            if (job != null && !job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }

        @Override
        public void close() throws Exception {
            try {
                cluster.close();
            } finally {
                kafka.close();
            }
        }
    }

    /** {@code pushline cluster} under .pushline/bench/gateway-cluster, started afresh. */
    static final class Cluster extends GatewayTarget {
        private final LocalCluster cluster;
        private final Supervisor supervisor;
        private final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        private String jobId;

        Cluster() throws Exception {
            Path home = LocalStack.defaultDir().resolve("bench").resolve("gateway-cluster");
            cluster = new LocalCluster(new ClusterLayout(home, ClusterLayout.findRoot()));
            cluster.layout().jobJar("gateway"); // fails early, naming the build, without one
            cluster.down(true, quiet);
            System.out.println("  starting pushline cluster under " + home);
            cluster.up(System.out);
            supervisor = new Supervisor(cluster);
        }

        @Override
        String kafka() {
            return cluster.layout().kafkaBootstrap();
        }

        @Override
        void recreate(List<String> topics) throws Exception {
            try (Admin admin = cluster.kafkaAdmin()) {
                EmbeddedKafka.recreateTopics(admin, topics, 2);
            }
        }

        @Override
        String start(Map<String, String> options) throws Exception {
            jobId = new FlinkCli(cluster.layout()).submit("gateway", args(options), null, null);
            return jobId;
        }

        @Override
        FlinkRest rest() {
            return cluster.rest();
        }

        @Override
        boolean kill() throws Exception {
            supervisor.hold(Role.TASKMANAGER_1);
            try {
                return supervisor.killAndRestart(Role.TASKMANAGER_1) > 0;
            } finally {
                supervisor.release(Role.TASKMANAGER_1);
            }
        }

        @Override
        String ended() throws Exception {
            for (FlinkRest.Job j : cluster.rest().jobs()) {
                if (j.id().equals(jobId)
                        && List.of("FAILED", "CANCELED", "FINISHED").contains(j.state())) {
                    return j.state().toLowerCase(java.util.Locale.ROOT)
                            + " (see the cluster's logs)";
                }
            }
            return null;
        }

        @Override
        void cancel() throws Exception {
            if (jobId != null && ended() == null) {
                new FlinkCli(cluster.layout()).run(List.of("cancel", jobId), quiet);
            }
        }

        @Override
        public void close() throws Exception {
            System.out.println("  stopping the cluster (files kept until the next run)");
            cluster.down(false, quiet);
        }
    }
}
