package io.pushline.local;

import io.pushline.common.CommonOptions;
import io.pushline.common.PushlineDirs;
import io.pushline.schema.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole embedded stack in this JVM: a Kafka broker (KRaft), an HBase mini cluster and the Flink
 * configuration for local jobs, with every file under one folder. Starts empty each time.
 */
public final class LocalStack implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofMinutes(3);

    private final Path dir;
    private final EmbeddedKafka kafka;
    private final EmbeddedHBase hbase;

    private LocalStack(Path dir, EmbeddedKafka kafka, EmbeddedHBase hbase) {
        this.dir = dir;
        this.kafka = kafka;
        this.hbase = hbase;
    }

    /** The default folder: Pushline's home ({@link PushlineDirs#home}). */
    public static Path defaultDir() {
        return PushlineDirs.home();
    }

    /**
     * Starts Kafka and HBase under {@code dir}, and creates the dispatch topics.
     *
     * @throws TimeoutException if the stack is not up within {@code timeout}; what did start is
     *     stopped again
     */
    public static LocalStack start(Path dir, Duration timeout) throws Exception {
        return start(dir, timeout, true);
    }

    /**
     * Starts HBase alone under {@code dir}: for what needs no Kafka (the stores' tests), which so
     * do not pay for a broker's start and idle CPU. {@link #kafka()} then fails, naming why.
     */
    public static LocalStack startHBaseOnly(Path dir, Duration timeout) throws Exception {
        return start(dir, timeout, false);
    }

    private static LocalStack start(Path dir, Duration timeout, boolean withKafka)
            throws Exception {
        Path root = dir.toAbsolutePath();
        deleteRecursively(root.resolve("kafka"));
        deleteRecursively(root.resolve("hbase"));
        Files.createDirectories(root);
        long t0 = System.nanoTime();
        // Kafka and HBase start side by side: neither needs the other, and each spends much of
        // its start-up waiting on itself (controller election, region assignment).
        ExecutorService starter =
                Executors.newFixedThreadPool(
                        2,
                        r -> {
                            Thread t = new Thread(r, "pushline-stack-start");
                            t.setDaemon(true);
                            return t;
                        });
        EmbeddedKafka[] kafka = new EmbeddedKafka[1];
        EmbeddedHBase[] hbase = new EmbeddedHBase[1];
        Future<?> kafkaStarted =
                !withKafka
                        ? CompletableFuture.completedFuture(null)
                        : starter.submit(
                                () -> {
                                    kafka[0] = EmbeddedKafka.start(root.resolve("kafka"));
                                    LOG.info(
                                            "Kafka up at {} after {} ms",
                                            kafka[0].bootstrapServers(),
                                            (System.nanoTime() - t0) / 1_000_000);
                                    kafka[0].createTopics(Topics.all(), 2);
                                    return null;
                                });
        Future<?> hbaseStarted =
                starter.submit(
                        () -> {
                            hbase[0] = EmbeddedHBase.start(root.resolve("hbase"));
                            LOG.info(
                                    "HBase up at {} after {} ms",
                                    hbase[0].zkQuorum(),
                                    (System.nanoTime() - t0) / 1_000_000);
                            return null;
                        });
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (Future<?> started : List.of(kafkaStarted, hbaseStarted)) {
                started.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException | ExecutionException | InterruptedException e) {
            kafkaStarted.cancel(true);
            hbaseStarted.cancel(true);
            starter.shutdownNow();
            // A start still under way would leave its half-started server behind.
            starter.awaitTermination(30, TimeUnit.SECONDS);
            closeQuietly(hbase[0]);
            closeQuietly(kafka[0]);
            if (e instanceof TimeoutException) {
                throw new TimeoutException(
                        "the local stack did not start within "
                                + timeout
                                + " (files in "
                                + root
                                + ")");
            }
            throw e;
        } finally {
            starter.shutdownNow();
        }
        return new LocalStack(root, kafka[0], hbase[0]);
    }

    public Path dir() {
        return dir;
    }

    public EmbeddedKafka kafka() {
        if (kafka == null) {
            throw new IllegalStateException(
                    "this stack was started without Kafka (LocalStack.startHBaseOnly)");
        }
        return kafka;
    }

    public EmbeddedHBase hbase() {
        return hbase;
    }

    public String kafkaBootstrap() {
        return kafka().bootstrapServers();
    }

    public String hbaseZkQuorum() {
        return hbase.zkQuorum();
    }

    /** Flink configuration for jobs run against this stack. */
    public Configuration flinkConfiguration() {
        return LocalFlink.configuration(dir.resolve("flink"));
    }

    /** Job options that point a job at this stack. */
    public Map<String, String> jobOptions() {
        Map<String, String> o = new HashMap<>();
        if (kafka != null) {
            o.put(CommonOptions.KAFKA_BOOTSTRAP.key(), kafkaBootstrap());
        }
        o.put(CommonOptions.HBASE_ZK_QUORUM.key(), hbaseZkQuorum());
        return o;
    }

    /** The lines of {@code local.env}: how tools and jobs find this stack. */
    public String envLines() {
        return "KAFKA_BOOTSTRAP="
                + kafkaBootstrap()
                + "\nHBASE_ZK_QUORUM="
                + hbaseZkQuorum()
                + "\n";
    }

    /**
     * What {@code local.env} under {@code home} says ({@code KAFKA_BOOTSTRAP}, {@code
     * HBASE_ZK_QUORUM}), empty when {@code ./pushline local up} wrote none.
     */
    public static Map<String, String> readEnv(Path home) throws IOException {
        return io.pushline.common.LocalEnv.read(home);
    }

    @Override
    public void close() {
        closeQuietly(hbase);
        closeQuietly(kafka);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("failed to stop {}", c.getClass().getSimpleName(), e);
        }
    }

    /** See {@link PushlineDirs#deleteRecursively}. */
    public static void deleteRecursively(Path p) throws IOException {
        PushlineDirs.deleteRecursively(p);
    }
}
