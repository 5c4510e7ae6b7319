package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NewestCheckpointTest {
    @TempDir java.nio.file.Path root;

    private java.nio.file.Path checkpoint(String relative, long at) throws Exception {
        java.nio.file.Path dir = Files.createDirectories(root.resolve(relative));
        java.nio.file.Path metadata = Files.writeString(dir.resolve("_metadata"), "x");
        Files.setLastModifiedTime(metadata, FileTime.fromMillis(at));
        return dir;
    }

    private static Path flink(java.nio.file.Path p) {
        return new Path(p.toUri());
    }

    @Test
    void theHighestCompleteChkOfAJobIsTakenAndAnIncompleteOneSkipped() throws Exception {
        checkpoint("job-a/chk-9", 1_000);
        java.nio.file.Path chk10 = checkpoint("job-a/chk-10", 2_000);
        // chk-11 is being written: no _metadata yet
        Files.createDirectories(root.resolve("job-a/chk-11"));
        Files.createDirectories(root.resolve("job-a/shared"));
        assertThat(NewestCheckpoint.under(flink(root.resolve("job-a"))).getName())
                .isEqualTo(chk10.getFileName().toString());
        // chk-10 sorts after chk-9 by number, not by name
        assertThat(NewestCheckpoint.under(flink(root)).getName()).isEqualTo("chk-10");
    }

    @Test
    void acrossJobsAndSavepointsTheNewestMetadataWins() throws Exception {
        checkpoint("job-a/chk-10", 2_000);
        checkpoint("job-b/chk-3", 5_000);
        checkpoint("savepoint-abc", 4_000);
        assertThat(NewestCheckpoint.under(flink(root)).getName()).isEqualTo("chk-3");
        assertThat(NewestCheckpoint.takenAt(NewestCheckpoint.under(flink(root)))).isEqualTo(5_000);
        checkpoint("savepoint-def", 9_000);
        assertThat(NewestCheckpoint.under(flink(root)).getName()).isEqualTo("savepoint-def");
    }

    @Test
    void aCheckpointItselfOrNothing() throws Exception {
        java.nio.file.Path chk = checkpoint("job-a/chk-1", 1_000);
        // java.nio's toUri() ends a folder with '/': the checkpoint still has its name
        assertThat(flink(chk).toUri().toString()).endsWith("/");
        assertThat(NewestCheckpoint.under(flink(chk)).getName()).isEqualTo("chk-1");
        assertThat(NewestCheckpoint.under(flink(root.resolve("missing")))).isNull();
        Files.createDirectories(root.resolve("empty/job/chk-1"));
        assertThat(NewestCheckpoint.under(flink(root.resolve("empty")))).isNull();
    }
}
