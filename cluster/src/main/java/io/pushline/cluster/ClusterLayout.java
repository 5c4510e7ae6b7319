package io.pushline.cluster;

import io.pushline.common.PushlineDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where {@code ./pushline cluster} keeps its files (under {@code $PUSHLINE_HOME/cluster}) and which
 * loopback ports its processes take. The ports are fixed so that a process restarted after a kill
 * comes back where its clients look for it.
 */
public final class ClusterLayout {
    public static final int KAFKA_PORT = 19092;
    public static final int KAFKA_CONTROLLER_PORT = 19093;
    public static final int ZOOKEEPER_PORT = 12181;
    public static final int HBASE_MASTER_PORT = 16000;
    public static final int HBASE_REGIONSERVER_PORT = 16020;
    public static final int FLINK_RPC_PORT = 6123;
    public static final int FLINK_REST_PORT = 8081;
    public static final String PROMETHEUS_PORTS = "9250-9259";
    public static final int S3_PORT = 19000;
    public static final int HA_ZOOKEEPER_PORT = 12182;
    public static final String S3_BUCKET = "pushline";

    /** System property or environment variable naming the repository's root folder. */
    public static final String ROOT_PROPERTY = "pushline.root";

    public static final String ROOT_ENV = "PUSHLINE_ROOT";

    private final Path home;
    private final Path root;

    public ClusterLayout(Path home, Path root) {
        this.home = home.toAbsolutePath();
        this.root = root.toAbsolutePath();
    }

    /** {@code $PUSHLINE_HOME/cluster} and the repository found as {@link #findRoot()} does. */
    public static ClusterLayout standard() {
        return new ClusterLayout(PushlineDirs.home().resolve("cluster"), findRoot());
    }

    public Path home() {
        return home;
    }

    public Path root() {
        return root;
    }

    public Path conf() {
        return home.resolve("conf");
    }

    public Path logs() {
        return home.resolve("logs");
    }

    public Path pids() {
        return home.resolve("pids");
    }

    public Path data() {
        return home.resolve("data");
    }

    public Path checkpoints() {
        return home.resolve("checkpoints");
    }

    public Path savepoints() {
        return home.resolve("savepoints");
    }

    /**
     * Whether this cluster keeps checkpoints, savepoints and HA metadata on S3 (s3proxy): {@code up
     * --s3} writes the marker file, {@code down --purge} deletes it with everything else.
     */
    public boolean s3() {
        return Files.isRegularFile(s3Marker());
    }

    Path s3Marker() {
        return home.resolve("s3.enabled");
    }

    /** The S3 access key and secret (mode 0600), made at the first {@code up --s3}. */
    Path s3Credentials() {
        return home.resolve("s3-credentials");
    }

    /** The processes this cluster runs, in the order {@code up} starts them. */
    public List<Role> roles() {
        boolean s3 = s3();
        return Stream.of(Role.values()).filter(r -> s3 || !r.s3Only()).toList();
    }

    public String s3Endpoint() {
        return "http://localhost:" + S3_PORT;
    }

    /**
     * Where checkpoints go: {@code s3://pushline/checkpoints} with S3, else {@code checkpoints/}.
     */
    public String checkpointsUri() {
        return s3() ? "s3://" + S3_BUCKET + "/checkpoints" : checkpoints().toUri().toString();
    }

    public String savepointsUri() {
        return s3() ? "s3://" + S3_BUCKET + "/savepoints" : savepoints().toUri().toString();
    }

    /** The plugins folder with Flink's S3 filesystem, as {@code cluster/flink-lib} copied it. */
    public Path flinkPluginsDir() {
        return root.resolve("cluster/flink-lib/target/plugins");
    }

    /** The jars of s3proxy, as {@code cluster/s3proxy} resolved them. */
    public String s3proxyClasspath() throws IOException {
        return builtClasspath("cluster/s3proxy/target/s3proxy-classpath.txt");
    }

    /** The folder whose {@code local.env} tells the other commands where Kafka and HBase are. */
    public Path pushlineHome() {
        return home.getParent();
    }

    public String kafkaBootstrap() {
        return "localhost:" + KAFKA_PORT;
    }

    public String zkQuorum() {
        return "localhost:" + ZOOKEEPER_PORT;
    }

    public String webUi() {
        return "http://localhost:" + FLINK_REST_PORT;
    }

    /** The jars of the Flink processes, as {@code cluster/flink-lib} resolved them. */
    public String flinkClasspath() throws IOException {
        return builtClasspath("cluster/flink-lib/target/flink-classpath.txt");
    }

    private String builtClasspath(String relative) throws IOException {
        Path file = root.resolve(relative);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    file
                            + " is missing: build the project first (mvn -B install -DskipTests,"
                            + " or any ./pushline command)");
        }
        return Files.readString(file).trim();
    }

    /** A job's shaded jar ({@code jobs/JOB/target/pushline-JOB-*-job.jar}). */
    public Path jobJar(String job) throws IOException {
        Path target = root.resolve("jobs").resolve(job).resolve("target");
        if (Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(target)) {
                List<Path> jars =
                        files.filter(
                                        p -> {
                                            String n = p.getFileName().toString();
                                            return n.startsWith("pushline-" + job + "-")
                                                    && n.endsWith("-job.jar");
                                        })
                                .toList();
                if (jars.size() == 1) {
                    return jars.get(0);
                }
            }
        }
        throw new IllegalStateException(
                "no shaded jar for job '"
                        + job
                        + "' under "
                        + target
                        + ": build it with mvn -B package -DskipTests -pl jobs/"
                        + job
                        + " -am");
    }

    /**
     * The repository's root: system property {@code pushline.root}, else {@code $PUSHLINE_ROOT}
     * (the launcher sets it), else the nearest folder upwards that holds {@code cluster/flink-lib}.
     */
    public static Path findRoot() {
        String explicit = System.getProperty(ROOT_PROPERTY, System.getenv(ROOT_ENV));
        if (explicit != null && !explicit.isBlank()) {
            return Paths.get(explicit);
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("cluster").resolve("flink-lib"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "cannot find the Pushline repository (set " + ROOT_ENV + " to its folder)");
    }
}
