package io.pushline.testkit;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * The MiniCluster of every ITCase: one task manager with two slots, so jobs run at parallelism 2
 * and keyed state, watermarks and restores cross subtasks.
 */
public final class Clusters {
    private Clusters() {}

    public static MiniClusterExtension twoSlots() {
        return twoSlots(new Configuration());
    }

    public static MiniClusterExtension twoSlots(Configuration cluster) {
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(cluster)
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .build());
    }
}
