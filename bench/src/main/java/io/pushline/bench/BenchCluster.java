package io.pushline.bench;

import io.pushline.local.LocalFlink;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * The MiniCluster the throughput benches run their jobs on: one TaskManager with two slots (the
 * machine's two cores), the local Flink configuration with data under a folder of the bench's, REST
 * on a free port so that benches can poll it.
 */
final class BenchCluster {
    private BenchCluster() {}

    /**
     * The local configuration with its data under {@code work}, REST on a free port, production's
     * network flush.
     */
    static Configuration configuration(Path work) {
        Configuration conf = LocalFlink.withProductionFlush(LocalFlink.configuration(work));
        conf.set(RestOptions.BIND_PORT, "0");
        return conf;
    }

    static MiniClusterConfiguration twoSlots(Configuration conf) {
        return new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build();
    }

    static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
