package io.pushline.cluster;

import io.pushline.common.PushlineDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.GlobalConfiguration;

/**
 * The configuration files of the cluster's processes, written under {@code conf/} at each {@code
 * up}: Flink's {@code config.yaml} (production's {@code deploy/flink-conf/config.yaml} with
 * loopback addresses, local folders and sizes for one machine), Kafka's {@code server.properties}
 * and one log4j2 file for every JVM.
 */
final class ClusterConfig {
    /**
     * What Flink's start scripts pass every JVM ({@code env.java.opts.all} of a Flink 2
     * distribution): without it the client fails translating a Sink V2 and the runtime cannot reach
     * into the JDK where it needs to.
     */
    static final List<String> FLINK_JVM_OPENS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED",
                    "--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private ClusterConfig() {}

    static void writeAll(ClusterLayout layout) throws IOException {
        Files.createDirectories(layout.conf());
        Files.createDirectories(layout.logs());
        Files.createDirectories(layout.pids());
        write(layout.conf().resolve("config.yaml"), flinkYaml(flinkConfig(layout)));
        write(layout.conf().resolve("kafka.properties"), kafkaProperties(layout));
        write(layout.conf().resolve("log4j2.properties"), LOG4J);
        if (layout.s3()) {
            write(layout.conf().resolve("zoo.cfg"), zooCfg(layout));
        }
    }

    /** Flink's settings: production's file, then what one machine needs instead. */
    static Map<String, String> flinkConfig(ClusterLayout layout) {
        Map<String, String> conf = new TreeMap<>();
        Path production = PushlineDirs.flinkConfDir();
        if (production == null) {
            production = layout.root().resolve("deploy/flink-conf");
        }
        conf.putAll(GlobalConfiguration.loadConfiguration(production.toString()).toMap());
        conf.put("jobmanager.rpc.address", "localhost");
        conf.put("jobmanager.rpc.port", Integer.toString(ClusterLayout.FLINK_RPC_PORT));
        conf.put("jobmanager.bind-host", "localhost");
        conf.put("rest.address", "localhost");
        conf.put("rest.bind-address", "localhost");
        conf.put("rest.port", Integer.toString(ClusterLayout.FLINK_REST_PORT));
        conf.put("taskmanager.host", "localhost");
        conf.put("taskmanager.bind-host", "localhost");
        conf.put("taskmanager.numberOfTaskSlots", "2");
        conf.put("taskmanager.memory.process.size", "2560m");
        conf.put("jobmanager.memory.process.size", "1g");
        // Both TaskManagers get tasks of every job, so a killed one always takes some with it.
        conf.put("taskmanager.load-balance.mode", "SLOTS");
        conf.put("execution.checkpointing.dir", layout.checkpointsUri());
        conf.put("execution.checkpointing.savepoint-dir", layout.savepointsUri());
        if (layout.s3()) {
            s3(layout, conf);
        }
        conf.put("io.tmp.dirs", layout.home().resolve("tmp").toString());
        // A TaskManager killed with -9 is noticed when its heartbeats stop: 15 s, not 50.
        conf.put("heartbeat.interval", "2 s");
        conf.put("heartbeat.timeout", "15 s");
        conf.put("metrics.reporter.prom.port", ClusterLayout.PROMETHEUS_PORTS);
        // bench latency reads every checkpoint of a phase from REST, not the last ten
        conf.put("web.checkpoints.history", "1000");
        conf.put("env.java.opts.all", String.join(" ", FLINK_JVM_OPENS));
        return conf;
    }

    /**
     * On S3 (s3proxy) as production is: Flink's S3 filesystem pointed at the local endpoint (path
     * style, as s3proxy serves buckets), and the JobManager's HA metadata in ZooKeeper with its
     * files in the bucket. The credentials are not here: the processes get them as environment
     * variables ({@link S3Store}).
     */
    private static void s3(ClusterLayout layout, Map<String, String> conf) {
        conf.put("s3.endpoint", layout.s3Endpoint());
        conf.put("s3.path.style.access", "true");
        conf.put("high-availability.type", "zookeeper");
        conf.put(
                "high-availability.zookeeper.quorum",
                "localhost:" + ClusterLayout.HA_ZOOKEEPER_PORT);
        conf.put("high-availability.storageDir", "s3://" + ClusterLayout.S3_BUCKET + "/ha");
        conf.put("high-availability.cluster-id", "/pushline-cluster");
        // With HA the JobManager's RPC port comes from here (jobmanager.rpc.port is ignored).
        conf.put(
                "high-availability.jobmanager.port",
                Integer.toString(ClusterLayout.FLINK_RPC_PORT));
        // Sessions outlive a host stall of a loaded 2-core machine (see hbaseSettings).
        conf.put("high-availability.zookeeper.client.session-timeout", "60000");
    }

    /**
     * The HA ZooKeeper, a process of its own: HBase's in-process ZooKeeper stops with HBase, and an
     * HBase outage must not take the JobManager's leadership with it.
     */
    static String zooCfg(ClusterLayout layout) {
        return String.join(
                "\n",
                "# Written by ./pushline cluster up --s3: the JobManager's HA ZooKeeper.",
                "tickTime=2000",
                "dataDir=" + layout.data().resolve("zookeeper-ha"),
                "clientPort=" + ClusterLayout.HA_ZOOKEEPER_PORT,
                "clientPortAddress=localhost",
                "maxSessionTimeout=60000",
                "admin.enableServer=false",
                "");
    }

    static String flinkYaml(Map<String, String> conf) {
        StringBuilder out =
                new StringBuilder(
                        "# Written by ./pushline cluster up from deploy/flink-conf/config.yaml;"
                                + " edits are lost at the next up.\n");
        conf.forEach(
                (k, v) -> out.append(k).append(": '").append(v.replace("'", "''")).append("'\n"));
        return out.toString();
    }

    static String kafkaProperties(ClusterLayout layout) {
        return String.join(
                "\n",
                "# Written by ./pushline cluster up: one KRaft node, broker and controller.",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@localhost:" + ClusterLayout.KAFKA_CONTROLLER_PORT,
                "listeners=PLAINTEXT://localhost:"
                        + ClusterLayout.KAFKA_PORT
                        + ",CONTROLLER://localhost:"
                        + ClusterLayout.KAFKA_CONTROLLER_PORT,
                "advertised.listeners=PLAINTEXT://localhost:" + ClusterLayout.KAFKA_PORT,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + layout.data().resolve("kafka"),
                "num.partitions=2",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=4",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=4",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                // A transaction's first write to a partition whose previous transaction still has
                // its commit markers on the way is retried by the broker after this backoff
                // (20 ms by default): measured, 2 % of the API server's group commits took 22-26 ms
                // instead of 2 ms, which set its p99. 1 ms keeps them at a few ms.
                "add.partitions.to.txn.retry.backoff.ms=1",
                // The controller fences a broker it has not heard from in 9 s by default; this
                // node's only broker then leads no partition until it is heard again. On a
                // 2-core machine recovering a job (bench chaos run 20) the controller's own
                // events took 21 s, the broker was fenced for 17 s and every writer failed.
                "broker.session.timeout.ms=30000",
                "");
    }

    /**
     * HBase in standalone mode: master, region server and ZooKeeper in one process.
     *
     * <p>Standalone HBase gives its ZooKeeper sessions 10 s unless told otherwise; a master or
     * region server whose session expires aborts, and in standalone mode that ends the process. On
     * a 2-core machine recovering a job, host stalls of 1.5-5.4 s in a row expired both (bench
     * chaos run 20), so the sessions get 60 s, which ZooKeeper must allow (its ceiling is 20 ticks,
     * 40 s, by default).
     */
    static List<String> hbaseSettings(ClusterLayout layout) {
        Path hbase = layout.data().resolve("hbase");
        return List.of(
                "hbase.cluster.distributed=false",
                "hbase.rootdir=" + hbase.resolve("root").toUri(),
                "hbase.tmp.dir=" + hbase.resolve("tmp"),
                "hbase.zookeeper.quorum=localhost",
                "hbase.zookeeper.property.clientPort=" + ClusterLayout.ZOOKEEPER_PORT,
                "hbase.zookeeper.property.dataDir=" + hbase.resolve("zookeeper"),
                "hbase.master.port=" + ClusterLayout.HBASE_MASTER_PORT,
                "hbase.regionserver.port=" + ClusterLayout.HBASE_REGIONSERVER_PORT,
                "hbase.master.info.port=-1",
                "hbase.regionserver.info.port=-1",
                "hbase.unsafe.stream.capability.enforce=false",
                "zookeeper.session.timeout.localHBaseCluster=60000",
                "hbase.zookeeper.property.maxSessionTimeout=60000");
    }

    private static final String LOG4J =
            String.join(
                    "\n",
                    "# Every process of ./pushline cluster logs to logs/<process>.log (-Dlog.file).",
                    "status = error",
                    "monitorInterval = 30",
                    "rootLogger.level = INFO",
                    "rootLogger.appenderRef.file.ref = file",
                    "appender.file.type = RollingFile",
                    "appender.file.name = file",
                    "appender.file.fileName = ${sys:log.file}",
                    "appender.file.filePattern = ${sys:log.file}.%i",
                    "appender.file.layout.type = PatternLayout",
                    "appender.file.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%t] %c %m%n",
                    "appender.file.policies.type = Policies",
                    "appender.file.policies.size.type = SizeBasedTriggeringPolicy",
                    "appender.file.policies.size.size = 100MB",
                    "appender.file.strategy.type = DefaultRolloverStrategy",
                    "appender.file.strategy.max = 5",
                    "logger.zookeeper.name = org.apache.zookeeper",
                    "logger.zookeeper.level = WARN",
                    "logger.hadoop.name = org.apache.hadoop",
                    "logger.hadoop.level = WARN",
                    "logger.hbase.name = org.apache.hadoop.hbase",
                    "logger.hbase.level = INFO",
                    "");

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
