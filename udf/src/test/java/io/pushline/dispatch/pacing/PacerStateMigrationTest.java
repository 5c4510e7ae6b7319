package io.pushline.dispatch.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.SendRecord;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.Test;

/**
 * Restores pacer state written by earlier versions (files under {@code state/}, written by {@link
 * PacerSnapshots}): the waiting sends leave whole, at the configured rate, none lost or repeated.
 */
class PacerStateMigrationTest {
    @Test
    void theBacklogWrittenByTheGenericPojoSerializerLeavesWhole() throws Exception {
        PacingConfig config = new PacingConfig(Map.of(PacerSnapshots.VENDOR, 1000.0), Map.of(), 3);
        try (PacerHarness p = new PacerHarness(config, read("pacer-v1-rocksdb"), 100)) {
            p.runUntil(1_000);
            List<SendRecord> sent = p.sent.stream().map(PacerHarness.Out::send).toList();
            // d0..d119 left before the snapshot; the rest, in order
            assertThat(sent)
                    .extracting(s -> s.deviceId)
                    .containsExactlyElementsOf(
                            IntStream.range(120, PacerSnapshots.SENDS)
                                    .mapToObj(i -> "d" + i)
                                    .collect(Collectors.toList()));
            SendRecord expected = new SendRecord();
            expected.msgId = "m1";
            expected.msgType = "t";
            expected.level = 1;
            expected.vendor = PacerSnapshots.VENDOR;
            expected.ts = 0;
            expected.deadline = PacerSnapshots.DEADLINE;
            assertThat(sent)
                    .allSatisfy(
                            s ->
                                    assertThat(s)
                                            .usingRecursiveComparison()
                                            .ignoringFields("deviceId")
                                            .isEqualTo(expected));
        }
    }

    private static OperatorSubtaskState read(String name) throws Exception {
        return OperatorSnapshotUtil.readStateHandle(
                PacerStateMigrationTest.class
                        .getClassLoader()
                        .getResource("state/" + name + ".snapshot")
                        .getPath());
    }
}
