package io.pushline.cluster;

import io.pushline.common.KafkaIO;
import io.pushline.common.LocalEnv;
import io.pushline.common.PushlineDirs;
import io.pushline.schema.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real Flink standalone session cluster on this machine: a JobManager and two TaskManagers, each
 * its own JVM, with Kafka (one KRaft node) and HBase (standalone: master, region server and
 * ZooKeeper) as processes of their own. Files live under {@code $PUSHLINE_HOME/cluster}; data,
 * checkpoints and savepoints survive {@code down} until {@code down --purge}.
 */
public final class LocalCluster {
    public static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final ClusterLayout layout;
    private final Processes processes;

    public LocalCluster(ClusterLayout layout) {
        this.layout = layout;
        this.processes = new Processes(layout);
    }

    public static LocalCluster standard() {
        return new LocalCluster(ClusterLayout.standard());
    }

    public ClusterLayout layout() {
        return layout;
    }

    public FlinkRest rest() {
        return new FlinkRest(layout.webUi());
    }

    /**
     * Starts every process that is not running (all of them the first time, a killed one after a
     * crash), waits until each answers, creates the topics and writes {@code local.env}.
     */
    public void up(PrintStream out) throws Exception {
        checkLocalEnv();
        ClusterConfig.writeAll(layout);
        for (Role role : layout.roles()) {
            Optional<ProcessHandle> running = processes.find(role);
            if (running.isPresent()) {
                out.printf("  %-14s already running (pid %d)%n", role.id(), running.get().pid());
                continue;
            }
            long t0 = System.nanoTime();
            ProcessHandle p = start(role);
            out.printf(
                    "  %-14s up in %4.1f s (pid %d)%n",
                    role.id(), (System.nanoTime() - t0) / 1e9, p.pid());
            if (role == Role.KAFKA) {
                createTopics();
            }
        }
        Files.writeString(
                layout.pushlineHome().resolve("local.env"),
                "# written by ./pushline cluster up\nKAFKA_BOOTSTRAP="
                        + layout.kafkaBootstrap()
                        + "\nHBASE_ZK_QUORUM="
                        + layout.zkQuorum()
                        + "\n",
                StandardCharsets.UTF_8);
    }

    /**
     * Makes this cluster one that checkpoints, savepoints and keeps HA metadata on S3 (s3proxy),
     * before {@link #up}. Refused while processes of a cluster on the local disk run: their jobs'
     * checkpoints would not follow.
     */
    public void enableS3() throws IOException {
        if (layout.s3()) {
            return;
        }
        for (Role role : layout.roles()) {
            if (processes.find(role).isPresent()) {
                throw new IllegalStateException(
                        "the cluster runs with checkpoints on the local disk ("
                                + role.id()
                                + " is up): ./pushline cluster down --purge first, then up --s3");
            }
        }
        new S3Store(layout).enable();
    }

    /** The environment of the Flink processes and client: S3 credentials and plugins, or none. */
    Map<String, String> flinkEnvironment() throws IOException {
        return layout.s3() ? new S3Store(layout).environment() : Map.of();
    }

    /** Starts one process (its configuration written already) and waits until it answers. */
    public ProcessHandle start(Role role) throws Exception {
        Optional<ProcessHandle> running = processes.find(role);
        if (running.isPresent()) {
            return running.get();
        }
        checkPortFree(role);
        ProcessHandle p =
                switch (role) {
                    case S3PROXY -> startS3Proxy();
                    case ZOOKEEPER -> startZooKeeper();
                    case KAFKA -> startKafka();
                    case HBASE -> startHBase();
                    case JOBMANAGER -> startJobManager();
                    case TASKMANAGER_1, TASKMANAGER_2 -> startTaskManager(role);
                };
        await(role, p, () -> ready(role));
        return p;
    }

    /** Kills a process with SIGKILL, as a crash would. False when it was not running. */
    public boolean kill(Role role) {
        return processes.kill(role);
    }

    /**
     * Stops a process the way its operators would: HBase by asking the master to shut the cluster
     * down (its region server flushes first), the others with SIGTERM.
     */
    public boolean stop(Role role) {
        if (role == Role.HBASE && processes.find(role).isPresent()) {
            try (Connection c = hbaseConnection();
                    Admin admin = c.getAdmin()) {
                admin.shutdown();
            } catch (Exception e) {
                // Not answering: the SIGTERM below ends it.
            }
        }
        return processes.stop(role, Duration.ofSeconds(60));
    }

    /** Stops everything, TaskManagers first; {@code purge} also deletes every file. */
    public void down(boolean purge, PrintStream out) throws IOException {
        List<Role> order = new ArrayList<>(layout.roles());
        java.util.Collections.reverse(order);
        for (Role role : order) {
            boolean was = stop(role);
            out.printf("  %-14s %s%n", role.id(), was ? "stopped" : "was not running");
            Files.deleteIfExists(layout.pids().resolve(role.id() + ".pid"));
        }
        Path env = layout.pushlineHome().resolve("local.env");
        if (ourLocalEnv(env)) {
            Files.deleteIfExists(env);
        }
        if (purge) {
            PushlineDirs.deleteRecursively(layout.home());
            out.println("  deleted " + layout.home());
        }
    }

    /** The running process of each role. */
    public Optional<ProcessHandle> process(Role role) {
        return processes.find(role);
    }

    public Path logFile(Role role) {
        return processes.logFile(role);
    }

    private ProcessHandle startS3Proxy() throws IOException {
        S3Store store = new S3Store(layout);
        Path properties = store.writeProxyConfig();
        return processes.spawn(
                Role.S3PROXY,
                List.of(
                        "-Xms256m",
                        "-Xmx512m",
                        "-Dlogback.configurationFile="
                                + layout.conf().resolve("s3proxy-logback.xml")),
                layout.s3proxyClasspath(),
                store.proxyCommand(properties));
    }

    private ProcessHandle startZooKeeper() throws IOException {
        return processes.spawn(
                Role.ZOOKEEPER,
                List.of("-Xms64m", "-Xmx256m"),
                System.getProperty("java.class.path"),
                List.of(
                        "org.apache.zookeeper.server.ZooKeeperServerMain",
                        layout.conf().resolve("zoo.cfg").toString()));
    }

    private ProcessHandle startKafka() throws Exception {
        String cp = System.getProperty("java.class.path");
        Path conf = layout.conf().resolve("kafka.properties");
        if (!Files.isRegularFile(layout.data().resolve("kafka").resolve("meta.properties"))) {
            processes.runToEnd(
                    List.of(
                            "-cp",
                            cp,
                            "kafka.tools.StorageTool",
                            "format",
                            "-t",
                            Uuid.randomUuid().toString(),
                            "-c",
                            conf.toString()));
        }
        return processes.spawn(
                Role.KAFKA,
                List.of("-Xms512m", "-Xmx1g"),
                cp,
                List.of("kafka.Kafka", conf.toString()));
    }

    private ProcessHandle startHBase() throws IOException {
        List<String> args = new ArrayList<>();
        args.add("org.apache.hadoop.hbase.master.HMaster");
        for (String kv : ClusterConfig.hbaseSettings(layout)) {
            args.add("-D");
            args.add(kv);
        }
        args.add("start");
        return processes.spawn(
                Role.HBASE,
                // Its row-key comparisons use Unsafe only with java.nio open (HBase's scripts too).
                List.of("-Xms512m", "-Xmx1g", "--add-opens=java.base/java.nio=ALL-UNNAMED"),
                System.getProperty("java.class.path"),
                args);
    }

    private ProcessHandle startJobManager() throws Exception {
        Resources r = resources("GET_JM_RESOURCE_PARAMS");
        List<String> args = new ArrayList<>();
        args.add("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint");
        args.add("--configDir");
        args.add(layout.conf().toString());
        args.addAll(r.dynamic());
        return processes.spawn(
                Role.JOBMANAGER, r.jvm(), layout.flinkClasspath(), args, flinkEnvironment());
    }

    private ProcessHandle startTaskManager(Role role) throws Exception {
        Resources r = resources("GET_TM_RESOURCE_PARAMS");
        List<String> args = new ArrayList<>();
        args.add("org.apache.flink.runtime.taskexecutor.TaskManagerRunner");
        args.add("--configDir");
        args.add(layout.conf().toString());
        args.addAll(r.dynamic());
        args.add("-D");
        args.add("taskmanager.resource-id=" + role.resourceId());
        List<String> jvm = new ArrayList<>(r.jvm());
        jvm.add("-XX:+UseTransparentHugePages");
        return processes.spawn(role, jvm, layout.flinkClasspath(), args, flinkEnvironment());
    }

    /** JVM flags and dynamic properties as Flink's scripts compute them (BashJavaUtils). */
    private Resources resources(String command) throws Exception {
        List<String> cmd = new ArrayList<>(ClusterConfig.FLINK_JVM_OPENS);
        cmd.add("-cp");
        cmd.add(layout.flinkClasspath());
        cmd.add("org.apache.flink.runtime.util.bash.BashJavaUtils");
        cmd.add(command);
        cmd.add("--configDir");
        cmd.add(layout.conf().toString());
        String out = processes.runToEnd(cmd);
        List<String> results = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("BASH_JAVA_UTILS_EXEC_RESULT:")) {
                results.add(line.substring("BASH_JAVA_UTILS_EXEC_RESULT:".length()).trim());
            }
        }
        if (results.size() < 2) {
            throw new IOException("BashJavaUtils " + command + " printed no result:\n" + out);
        }
        List<String> jvm = new ArrayList<>(Arrays.asList(results.get(0).split("\\s+")));
        jvm.addAll(ClusterConfig.FLINK_JVM_OPENS);
        List<String> dynamic = new ArrayList<>();
        for (String s : results.get(results.size() - 1).split("\\s+")) {
            if (!s.isEmpty()) {
                dynamic.add(s);
            }
        }
        return new Resources(jvm, dynamic);
    }

    private record Resources(List<String> jvm, List<String> dynamic) {}

    private boolean ready(Role role) {
        try {
            return switch (role) {
                case S3PROXY -> listening(ClusterLayout.S3_PORT);
                case ZOOKEEPER -> listening(ClusterLayout.HA_ZOOKEEPER_PORT);
                case KAFKA -> kafkaReady();
                case HBASE -> hbaseReady();
                case JOBMANAGER -> rest().up();
                case TASKMANAGER_1, TASKMANAGER_2 ->
                        rest().taskManagers().contains(role.resourceId());
            };
        } catch (Exception e) {
            return false;
        }
    }

    private boolean kafkaReady() throws Exception {
        if (!listening(ClusterLayout.KAFKA_PORT)) {
            return false;
        }
        try (org.apache.kafka.clients.admin.Admin admin = kafkaAdmin()) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        }
    }

    private boolean hbaseReady() throws Exception {
        if (!listening(ClusterLayout.ZOOKEEPER_PORT)) {
            return false;
        }
        try (Connection c = hbaseConnection();
                Admin admin = c.getAdmin()) {
            return !admin.getClusterMetrics().getLiveServerMetrics().isEmpty()
                    && admin.isTableAvailable(TableName.META_TABLE_NAME);
        }
    }

    public org.apache.kafka.clients.admin.Admin kafkaAdmin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, layout.kafkaBootstrap());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return org.apache.kafka.clients.admin.Admin.create(p);
    }

    /** A connection to the cluster's HBase that gives up quickly when it is down. */
    public Connection hbaseConnection() throws IOException {
        Configuration conf = hbaseClientConf();
        conf.setInt("hbase.client.retries.number", 2);
        conf.setInt("zookeeper.recovery.retry", 1);
        conf.setInt("hbase.client.operation.timeout", 10_000);
        conf.setInt("hbase.rpc.timeout", 5_000);
        return ConnectionFactory.createConnection(conf);
    }

    /**
     * A connection to the cluster's HBase for loading data (a million dictionary rows before a
     * benchmark): HBase's own retries and a minute per call. On a loaded 2-core machine one batch
     * of conditional writes can take longer than the 5 s that {@link #hbaseConnection()} allows,
     * and a bench then failed before its first fault (chaos, 2026-12-02).
     */
    public Connection hbaseLoadConnection() throws IOException {
        Configuration conf = hbaseClientConf();
        conf.setInt("hbase.rpc.timeout", 60_000);
        conf.setInt("hbase.client.operation.timeout", 300_000);
        return ConnectionFactory.createConnection(conf);
    }

    private static Configuration hbaseClientConf() {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", "localhost");
        conf.setInt("hbase.zookeeper.property.clientPort", ClusterLayout.ZOOKEEPER_PORT);
        return conf;
    }

    private void createTopics() throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin = kafkaAdmin()) {
            KafkaIO.createTopics(admin, Topics.all(), 2);
        }
    }

    private void await(Role role, ProcessHandle p, BooleanSupplier ready) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!ready.getAsBoolean()) {
            if (!p.isAlive()) {
                throw new IOException(
                        role.id()
                                + " exited during start-up; see "
                                + processes.outFile(role)
                                + " and "
                                + processes.logFile(role));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(
                        role.id()
                                + " did not answer within "
                                + START_TIMEOUT.toSeconds()
                                + " s; see "
                                + processes.logFile(role));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
        }
    }

    private void checkPortFree(Role role) throws IOException {
        int port =
                switch (role) {
                    case S3PROXY -> ClusterLayout.S3_PORT;
                    case ZOOKEEPER -> ClusterLayout.HA_ZOOKEEPER_PORT;
                    case KAFKA -> ClusterLayout.KAFKA_PORT;
                    case HBASE -> ClusterLayout.ZOOKEEPER_PORT;
                    case JOBMANAGER -> ClusterLayout.FLINK_REST_PORT;
                    default -> -1;
                };
        if (port > 0 && !Processes.portFree(port)) {
            throw new IOException(
                    "port "
                            + port
                            + " (for "
                            + role.id()
                            + ") is taken by another process; stop it, then run up again");
        }
    }

    /** Refuses to take over a {@code local.env} of a running {@code ./pushline local up}. */
    private void checkLocalEnv() throws IOException {
        Path env = layout.pushlineHome().resolve("local.env");
        if (!Files.isRegularFile(env) || ourLocalEnv(env)) {
            return;
        }
        Map<String, String> other = LocalEnv.read(layout.pushlineHome());
        String bootstrap = other.getOrDefault("KAFKA_BOOTSTRAP", "");
        int colon = bootstrap.lastIndexOf(':');
        if (colon > 0 && listening(Integer.parseInt(bootstrap.substring(colon + 1)))) {
            throw new IOException(
                    "./pushline local up is running ("
                            + env
                            + " names Kafka at "
                            + bootstrap
                            + "): stop it first, or give the cluster another PUSHLINE_HOME");
        }
    }

    private static boolean ourLocalEnv(Path env) throws IOException {
        return Files.isRegularFile(env)
                && Files.readString(env).startsWith("# written by ./pushline cluster up");
    }

    static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("localhost", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
