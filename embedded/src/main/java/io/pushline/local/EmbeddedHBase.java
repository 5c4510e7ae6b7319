package io.pushline.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;

/**
 * A real HBase mini cluster (master, one region server, ZooKeeper) on the local filesystem, in this
 * JVM, with all its files under a folder of ours.
 */
public final class EmbeddedHBase implements AutoCloseable {
    private final HBaseTestingUtility util;

    private EmbeddedHBase(HBaseTestingUtility util) {
        this.util = util;
    }

    public static EmbeddedHBase start(Path dir) throws Exception {
        Files.createDirectories(dir);
        // The testing utility reads its base folder from this property; without it HBase
        // writes under ./target/test-data of whatever folder the JVM started in.
        System.setProperty("test.build.data.basedirectory", dir.toAbsolutePath().toString());
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
        conf.setInt("hbase.master.info.port", -1);
        conf.setInt("hbase.regionserver.info.port", -1);
        conf.setInt("hbase.client.retries.number", 10);
        // One region server: the master need not wait (4.5 s by default) for more to check in,
        // and the region server reports every 0.5 s instead of every 3 s, so meta is assigned as
        // soon as it is up. Every test JVM and `local up` starts one of these.
        conf.setInt("hbase.master.wait.on.regionservers.mintostart", 1);
        conf.setInt("hbase.master.wait.on.regionservers.maxtostart", 1);
        conf.setInt("hbase.master.wait.on.regionservers.timeout", 500);
        conf.setInt("hbase.master.wait.on.regionservers.interval", 100);
        conf.setInt("hbase.regionserver.msginterval", 500);
        // No write-ahead log: the stack starts empty every time and lives in one JVM, so a log
        // to replay after a region server's crash has nothing to protect (its threads took about
        // 3% of the CPU of dispatch's integration tests).
        conf.setBoolean("hbase.regionserver.hlog.enabled", false);
        HBaseTestingUtility util = new HBaseTestingUtility(conf);
        try {
            util.startMiniZKCluster();
            util.startMiniHBaseCluster(
                    StartMiniClusterOption.builder()
                            .numMasters(1)
                            .numRegionServers(1)
                            .createRootDir(true)
                            .build());
        } catch (Exception e) {
            shutdown(util);
            throw e;
        }
        return new EmbeddedHBase(util);
    }

    /** The ZooKeeper quorum clients connect to, as {@code host:port}. */
    public String zkQuorum() {
        return "localhost:" + util.getZkCluster().getClientPort();
    }

    /** The shared connection: never close it. */
    public Connection connection() throws IOException {
        return util.getConnection();
    }

    /** A connection of the caller's own, to close when done. */
    public Connection newConnection() throws IOException {
        return org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(
                util.getConfiguration());
    }

    @Override
    public void close() throws Exception {
        shutdown(util);
    }

    private static void shutdown(HBaseTestingUtility util) throws Exception {
        try {
            util.shutdownMiniHBaseCluster();
        } finally {
            util.shutdownMiniZKCluster();
        }
    }
}
