package io.pushline.segments;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.segments.MemberRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadPackageFileTest {
    @TempDir Path dir;

    @Test
    void membersAreReadLineByLine() throws Exception {
        List<MemberRow> rows = read("sports", Files.writeString(dir.resolve("a.txt"), "u1\n\nu2"));
        assertThat(rows).extracting(r -> r.uid).containsExactly("u1", "u2");
        assertThat(rows).allMatch(r -> r.dead == null && r.segment.equals("sports"));
    }

    /** A file without line breaks is one bad line, read in bounded memory, not a failed build. */
    @Test
    void aFileWithoutBreaksIsOneRejectedLine() throws Exception {
        Path f = Files.writeString(dir.resolve("b.txt"), "u".repeat(3_000_000) + "\nu9\n");
        List<MemberRow> rows = read("big", f);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).dead.reason).contains("malformed uid");
        assertThat(rows.get(0).dead.raw.length()).isLessThanOrEqualTo(ReadPackageFile.MAX_LINE);
        assertThat(rows.get(1).uid).isEqualTo("u9");
    }

    /** A name longer than HBase row keys allow once failed the build on every run. */
    @Test
    void aFileWhoseNameCannotBeASegmentIsSkippedWithAReason() throws Exception {
        Path f = Files.writeString(dir.resolve("c.txt"), "u1\n");
        List<MemberRow> rows = read("x".repeat(40_000), f);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).dead.reason).contains("malformed segment name");
        assertThat(rows.get(0).dead.position).isEqualTo("file");
    }

    private static List<MemberRow> read(String segment, Path file) throws Exception {
        List<MemberRow> out = new ArrayList<>();
        new ReadPackageFile().flatMap(segment + "\t" + file, new ListCollector<>(out));
        return out;
    }
}
