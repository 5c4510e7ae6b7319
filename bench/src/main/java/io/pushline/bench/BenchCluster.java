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

    /**
     * A bench job's MiniCluster: data under {@code dir}, REST on {@code restPort} (for the bench's
     * polls), {@code production}'s checkpoint settings, a TaskManager's managed memory of
     * k8s/base/dispatch.yaml.
     */
    static Configuration jobCluster(
            Path dir, int restPort, java.util.Map<String, String> production) {
        Configuration flink = LocalFlink.configuration(dir);
        flink.setString("rest.bind-port", Integer.toString(restPort));
        flink.setString("rest.port", Integer.toString(restPort));
        production.forEach(flink::setString);
        flink.setString("taskmanager.memory.managed.size", PacingBench.MANAGED_MEMORY);
        return flink;
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
