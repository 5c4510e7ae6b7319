package io.pushline.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterConfigTest {
    @TempDir Path home;

    private ClusterLayout layout() {
        return new ClusterLayout(home.resolve("cluster"), ClusterLayout.findRoot());
    }

    @Test
    void flinkReadsBackProductionSettingsWithTheLocalOnesInstead() throws Exception {
        ClusterLayout layout = layout();
        ClusterConfig.writeAll(layout);
        Configuration conf = GlobalConfiguration.loadConfiguration(layout.conf().toString());
        Map<String, String> m = conf.toMap();
        // production's, kept
        assertThat(m)
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.interval", "300 ms")
                .containsEntry("pipeline.max-parallelism", "720")
                .containsEntry("restart-strategy.type", "exponential-delay");
        // one machine's, instead of production's
        assertThat(m.get("execution.checkpointing.dir"))
                .isEqualTo(layout.checkpoints().toUri().toString())
                .startsWith("file:");
        assertThat(m.get("execution.checkpointing.savepoint-dir")).startsWith("file:");
        assertThat(m)
                .containsEntry("rest.port", "8081")
                .containsEntry("rest.bind-address", "localhost")
                .containsEntry("taskmanager.numberOfTaskSlots", "2")
                .containsEntry("taskmanager.load-balance.mode", "SLOTS")
                .containsEntry("heartbeat.timeout", "15 s");
        assertThat(m.get("env.java.opts.all"))
                .contains("--add-opens=java.base/java.util=ALL-UNNAMED");
    }

    @Test
    void onS3TheClusterCheckpointsAndKeepsHaThereWithTheSecretOnlyInPrivateFiles()
            throws Exception {
        ClusterLayout layout = layout();
        assertThat(layout.roles()).doesNotContain(Role.S3PROXY, Role.ZOOKEEPER);
        new S3Store(layout).enable();
        assertThat(layout.roles()).startsWith(Role.S3PROXY, Role.ZOOKEEPER).contains(Role.HBASE);
        ClusterConfig.writeAll(layout);
        Path proxy = new S3Store(layout).writeProxyConfig();
        Map<String, String> m =
                GlobalConfiguration.loadConfiguration(layout.conf().toString()).toMap();
        assertThat(m)
                .containsEntry("execution.checkpointing.dir", "s3://pushline/checkpoints")
                .containsEntry("execution.checkpointing.savepoint-dir", "s3://pushline/savepoints")
                .containsEntry("high-availability.type", "zookeeper")
                .containsEntry("high-availability.zookeeper.quorum", "localhost:12182")
                .containsEntry("high-availability.storageDir", "s3://pushline/ha")
                .containsEntry("s3.endpoint", "http://localhost:19000")
                .containsEntry("s3.path.style.access", "true");
        Map<String, String> env = new S3Store(layout).environment();
        String secret = env.get("AWS_SECRET_ACCESS_KEY");
        assertThat(secret).hasSizeGreaterThanOrEqualTo(32);
        assertThat(Files.readString(layout.conf().resolve("config.yaml"))).doesNotContain(secret);
        assertThat(Files.readString(proxy)).contains("s3proxy.credential=" + secret);
        assertThat(
                        java.nio.file.attribute.PosixFilePermissions.toString(
                                Files.getPosixFilePermissions(proxy)))
                .isEqualTo("rw-------");
        assertThat(
                        java.nio.file.attribute.PosixFilePermissions.toString(
                                Files.getPosixFilePermissions(layout.s3Credentials())))
                .isEqualTo("rw-------");
        assertThat(env.get("FLINK_PLUGINS_DIR")).endsWith("cluster/flink-lib/target/plugins");
        // a second enable keeps the credentials the bucket's files were written with
        new S3Store(layout).enable();
        assertThat(new S3Store(layout).environment())
                .containsEntry("AWS_SECRET_ACCESS_KEY", secret);
    }

    @Test
    void quotesInValuesSurviveTheYaml() throws Exception {
        Path dir = Files.createDirectories(home.resolve("conf"));
        Files.writeString(
                dir.resolve("config.yaml"),
                ClusterConfig.flinkYaml(Map.of("a.b", "it's: here", "c", "-XX:+Flag")));
        Map<String, String> back = GlobalConfiguration.loadConfiguration(dir.toString()).toMap();
        assertThat(back).containsEntry("a.b", "it's: here").containsEntry("c", "-XX:+Flag");
    }

    @Test
    void kafkaIsOneKraftNodeOnTheFixedPortsWithItsLogInTheClusterFolder() throws Exception {
        ClusterLayout layout = layout();
        ClusterConfig.writeAll(layout);
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(layout.conf().resolve("kafka.properties"))) {
            p.load(in);
        }
        assertThat(p.getProperty("process.roles")).isEqualTo("broker,controller");
        assertThat(p.getProperty("advertised.listeners"))
                .isEqualTo("PLAINTEXT://localhost:" + ClusterLayout.KAFKA_PORT);
        assertThat(p.getProperty("log.dirs")).startsWith(layout.home().toString());
        assertThat(p.getProperty("transaction.state.log.replication.factor")).isEqualTo("1");
        assertThat(p.getProperty("add.partitions.to.txn.retry.backoff.ms")).isEqualTo("1");
    }

    @Test
    void hbaseKeepsEverythingUnderTheClusterFolder() {
        ClusterLayout layout = layout();
        for (String kv : ClusterConfig.hbaseSettings(layout)) {
            String value = kv.substring(kv.indexOf('=') + 1);
            if (kv.contains("dir")) {
                assertThat(value).as(kv).contains(layout.home().toString());
            }
        }
        assertThat(ClusterConfig.hbaseSettings(layout))
                .contains("hbase.cluster.distributed=false")
                .contains("hbase.zookeeper.property.clientPort=" + ClusterLayout.ZOOKEEPER_PORT);
    }

    /**
     * A starved 2-core machine stalls for seconds at a time while a job recovers: neither HBase's
     * ZooKeeper sessions nor the broker's session with its controller may expire in that time, and
     * ZooKeeper must grant the session HBase asks for (it caps it at maxSessionTimeout).
     */
    @Test
    void sessionsOutlastStallsOfAStarvedMachine() throws Exception {
        ClusterLayout layout = layout();
        Map<String, Integer> hbase = new HashMap<>();
        for (String kv : ClusterConfig.hbaseSettings(layout)) {
            String key = kv.substring(0, kv.indexOf('='));
            if (key.toLowerCase(java.util.Locale.ROOT).contains("session")) {
                hbase.put(key, Integer.parseInt(kv.substring(kv.indexOf('=') + 1)));
            }
        }
        int asked = hbase.getOrDefault("zookeeper.session.timeout.localHBaseCluster", 10_000);
        assertThat(asked).isGreaterThanOrEqualTo(60_000);
        assertThat(hbase.getOrDefault("hbase.zookeeper.property.maxSessionTimeout", 40_000))
                .isGreaterThanOrEqualTo(asked);

        ClusterConfig.writeAll(layout);
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(layout.conf().resolve("kafka.properties"))) {
            p.load(in);
        }
        assertThat(Integer.parseInt(p.getProperty("broker.session.timeout.ms", "9000")))
                .isGreaterThanOrEqualTo(30_000);
    }
}
