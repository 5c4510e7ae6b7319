package io.pushline.segments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackageFilesTest {
    @TempDir Path dir;

    @Test
    void namesComeFromPathsWithSubfoldersAndDecodedEscapes() {
        assertThat(PackageFiles.name("sports.txt")).isEqualTo("sports");
        assertThat(PackageFiles.name("fans/host42.txt")).isEqualTo("fans/host42");
        assertThat(PackageFiles.name("fans%3Ahost42.txt")).isEqualTo("fans:host42");
        assertThat(PackageFiles.name("a+b.txt")).isEqualTo("a+b");
    }

    @Test
    void listsALocalFolderIncludingNamesFlinkPathsCannotHold() throws Exception {
        Files.writeString(dir.resolve("fans:host42.txt"), "u1\n");
        Files.createDirectories(dir.resolve("region"));
        Files.writeString(dir.resolve("region/beijing.txt"), "u2\n");
        Files.writeString(dir.resolve("notes.md"), "not a package\n");
        Configuration c = new Configuration();
        c.set(SegmentsOptions.FILES, dir.toUri().toString());
        Map<String, String> files = PackageFiles.list(c);
        assertThat(files).containsOnlyKeys("fans:host42", "region/beijing");
        try (var in = PackageFiles.open(files.get("fans:host42"))) {
            assertThat(in.readLine()).isEqualTo("u1");
        }
    }

    @Test
    void aMissingFolderNamesTheOption() {
        Configuration c = new Configuration();
        c.set(SegmentsOptions.FILES, dir.resolve("nope").toString());
        assertThatThrownBy(() -> PackageFiles.list(c))
                .hasMessageStartingWith("option 'segments.files': no folder ");
    }
}
