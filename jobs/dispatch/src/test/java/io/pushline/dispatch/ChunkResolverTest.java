package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.FolderAudiences;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.UidKeyed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChunkResolverTest {
    @TempDir Path dir;

    @AfterEach
    void up() {
        FlakyAudiences.DOWN.set(false);
    }

    private OneInputStreamOperatorTestHarness<AudienceChunk, UidKeyed> harness(
            OperatorSubtaskState restore) throws Exception {
        Files.write(dir.resolve("a.txt"), List.of("u0", "u1", "u2"));
        var h =
                new OneInputStreamOperatorTestHarness<>(
                        new ChunkResolver(new FlakyAudiences(FolderAudiences.factory(dir, null))));
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    private static AudienceChunk chunk(int index, int... ids) {
        PushRequest p = new PushRequest();
        p.ts = 1_000;
        p.msgId = "m1";
        p.msgType = "campaign";
        p.title = "t";
        p.body = "b";
        return AudienceChunk.of(p, ids, index);
    }

    private static List<String> uids(OneInputStreamOperatorTestHarness<AudienceChunk, UidKeyed> h) {
        return h.extractOutputValues().stream().map(u -> u.uid).toList();
    }

    /** A list's slice needs no dictionary: even with HBase down its uids and devices go on. */
    @Test
    void aListsSliceGoesOnWithoutTheDictionary() throws Exception {
        FlakyAudiences.DOWN.set(true);
        try (var h = harness(null)) {
            AudienceChunk uids = chunk(0);
            uids.uids = new String[] {"x1", "x2"};
            h.processElement(uids, 1_000);
            AudienceChunk devices = chunk(1);
            devices.devices = new String[] {"d1", "d2", "d3"};
            h.processElement(devices, 1_000);
            assertThat(uids(h)).containsExactly("x1", "x2");
            assertThat(h.getSideOutput(DispatchTags.LISTED_DEVICES))
                    .extracting(r -> r.getValue().deviceId)
                    .containsExactly("d1", "d2", "d3");
            assertThat(h.getSideOutput(DispatchTags.LISTED_DEVICES))
                    .allMatch(r -> r.getTimestamp() == 1_000 && r.getValue().request != null);
        }
    }

    /** HBase down: chunks wait, in order, and watermarks go on; HBase back: they are resolved. */
    @Test
    void chunksWaitForTheDictionaryWithoutStoppingWatermarks() throws Exception {
        try (var h = harness(null)) {
            h.processElement(chunk(0, 0), 1_000);
            assertThat(uids(h)).containsExactly("u0");
            FlakyAudiences.DOWN.set(true);
            h.processElement(chunk(1, 1), 1_000);
            FlakyAudiences.DOWN.set(false);
            h.processElement(chunk(2, 2), 1_000); // behind the waiting one: waits too
            h.processWatermark(new Watermark(5_000));
            assertThat(uids(h)).containsExactly("u0");
            assertThat(h.getOutput()).contains(new Watermark(5_000));

            h.setProcessingTime(ChunkResolver.RETRY_FIRST_MS);
            assertThat(uids(h)).containsExactly("u0", "u1", "u2");
        }
    }

    @Test
    void waitingChunksSurviveARestore() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(null)) {
            FlakyAudiences.DOWN.set(true);
            h.processElement(chunk(0, 0, 1), 1_000);
            snapshot = h.snapshot(1, 1);
        }
        FlakyAudiences.DOWN.set(false);
        try (var h = harness(snapshot)) {
            h.setProcessingTime(ChunkResolver.RETRY_FIRST_MS);
            assertThat(uids(h)).containsExactly("u0", "u1");
        }
    }
}
