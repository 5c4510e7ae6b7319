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
        Configuration conf = productionFlush(LocalFlink.configuration(work));
        conf.set(RestOptions.BIND_PORT, "0");
        return conf;
    }

    /**
     * Puts production's network flush back into a local configuration (local runs flush at Flink's
     * 100 ms default to save the tests' CPU): every benchmark's figures are at production's flush,
     * as they were recorded.
     */
    static Configuration productionFlush(Configuration conf) {
        LocalFlink.productionCheckpoints()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith("execution.buffer-timeout.")) {
                                conf.setString(k, v);
                            }
                        });
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
