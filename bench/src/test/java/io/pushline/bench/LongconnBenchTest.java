package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.PushlineDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LongconnBenchTest {
    /** The tracker is measured with the checkpoints the long-connection job takes in production. */
    @Test
    void checkpointsAsTheLongConnectionManifestTakesThem() throws Exception {
        // the repository's root is two folders above deploy/flink-conf
        Path manifest =
                PushlineDirs.flinkConfDir()
                        .getParent()
                        .getParent()
                        .resolve("k8s/base/longconn.yaml");
        assertThat(Files.readString(manifest))
                .contains("execution.checkpointing.interval: " + LongconnBench.CHECKPOINT_INTERVAL)
                .contains(
                        "execution.checkpointing.min-pause: " + LongconnBench.CHECKPOINT_MIN_PAUSE);
    }
}
