package io.pushline.dispatch;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster of the dispatch ITCases: one task manager with two slots (parallelism 2). */
final class TwoSlotCluster {
    private TwoSlotCluster() {}

    static MiniClusterExtension extension() {
        return extension(new Configuration());
    }

    static MiniClusterExtension extension(Configuration cluster) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(cluster)
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .build());
    }
}
