package io.pushline.local;

import io.pushline.common.KafkaIO;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Kafka broker (KRaft, one combined broker and controller) in this JVM, with its logs under
 * a folder of ours. Kafka's test kit is an internal API: this class is the only place that uses it.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedKafka start(Path dir) throws Exception {
        return start(dir, Map.of());
    }

    /**
     * A broker with extra broker settings: more listeners (a TLS one with SASL, say) next to the
     * plain one that {@link #bootstrapServers()} and {@link #admin()} use.
     */
    public static EmbeddedKafka start(Path dir, Map<String, String> extra) throws Exception {
        Files.createDirectories(dir);
        KafkaClusterTestKit.Builder builder =
                new KafkaClusterTestKit.Builder(
                        new TestKitNodes.Builder()
                                .setCombined(true)
                                .setNumBrokerNodes(1)
                                .setNumControllerNodes(1)
                                .setBaseDirectory(dir)
                                .build());
        extra.forEach(builder::setConfigProp);
        KafkaClusterTestKit cluster =
                builder.setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("offsets.topic.num.partitions", "4")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("transaction.state.log.num.partitions", "4")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        // see ClusterConfig: the broker's 20 ms retry of a transaction's first
                        // write behind unfinished commit markers set the API's p99
                        .setConfigProp("add.partitions.to.txn.retry.backoff.ms", "1")
                        .setConfigProp("auto.create.topics.enable", "false")
                        .setDeleteOnClose(false)
                        .build();
        PrintStream stdout = System.out;
        try {
            // format() prints the bootstrap metadata to standard output; keep the CLI's clean.
            System.setOut(new PrintStream(OutputStream.nullOutputStream(), true, "UTF-8"));
            cluster.format();
            System.setOut(stdout);
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            cluster.close();
            throw e;
        } finally {
            System.setOut(stdout);
        }
        return new EmbeddedKafka(cluster);
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return Admin.create(p);
    }

    /** Creates the topics that do not exist yet, each with {@code partitions} partitions. */
    public void createTopics(Collection<String> topics, int partitions) throws Exception {
        try (Admin admin = admin()) {
            createTopics(admin, topics, partitions);
        }
    }

    /** The same through any broker's admin client (a broker of its own process, say). */
    public static void createTopics(Admin admin, Collection<String> topics, int partitions)
            throws Exception {
        KafkaIO.createTopics(admin, topics, partitions);
    }

    /**
     * Deletes the topics and creates them again, empty, so that one test's records never reach
     * another's job. Deletion is asynchronous: waits until the old topics are gone.
     */
    public void recreateTopics(Collection<String> topics, int partitions) throws Exception {
        try (Admin admin = admin()) {
            recreateTopics(admin, topics, partitions);
        }
        awaitLeaders(topics, partitions);
    }

    /** The same through any broker's admin client, without waiting for the partitions' leaders. */
    public static void recreateTopics(Admin admin, Collection<String> topics, int partitions)
            throws Exception {
        Set<String> existing = admin.listTopics().names().get();
        admin.deleteTopics(topics.stream().filter(existing::contains).collect(Collectors.toList()))
                .all()
                .get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.listTopics().names().get().stream().anyMatch(topics::contains)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topics not deleted within 60 s: " + topics);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        createTopics(admin, topics, partitions);
    }

    /**
     * Waits until the broker leads every partition of the topics. A topic is listed as soon as the
     * controller has it, but its partitions take a moment more to come up on the broker; a producer
     * that comes in between gets "not leader" and retries, and once such a retry did not end before
     * its delivery timeout. Listing the end offsets goes to each partition's leader, so it answers
     * only when all of them are up.
     */
    private void awaitLeaders(Collection<String> topics, int partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> all = new HashMap<>();
        for (String t : topics) {
            for (int p = 0; p < partitions; p++) {
                all.put(new TopicPartition(t, p), OffsetSpec.latest());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Admin admin = admin()) {
            while (true) {
                try {
                    admin.listOffsets(all).all().get(10, TimeUnit.SECONDS);
                    return;
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "the broker did not lead the partitions of "
                                        + topics
                                        + " within 60 s of creating them",
                                e);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
            }
        }
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
