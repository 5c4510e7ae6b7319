package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

class LongconnBenchTest {
    /** The tracker is measured with the checkpoints the long-connection job takes in production. */
    @Test
    void checkpointsAsTheLongConnectionManifestTakesThem() throws Exception {
        Path manifest = null;
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("k8s/longconn.yaml"))) {
                manifest = p.resolve("k8s/longconn.yaml");
                break;
            }
        }
        assertThat(manifest).as("k8s/longconn.yaml above the module").isNotNull();
        assertThat(Files.readString(manifest))
                .contains("execution.checkpointing.interval: " + LongconnBench.CHECKPOINT_INTERVAL)
                .contains(
                        "execution.checkpointing.min-pause: " + LongconnBench.CHECKPOINT_MIN_PAUSE);
    }
}
