package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A house rule a reviewer would otherwise have to count by hand: no main source file grows past 500
 * lines. A file that does holds more than one idea; split it where the ideas part.
 */
class SourceSizeTest {
    private static final int MAX_LINES = 500;

    @Test
    void noMainSourceFileIsOver500Lines() throws IOException {
        Path root = K8sManifestsTest.k8sDir().getParent();
        List<String> tooLong = new ArrayList<>();
        Files.walkFileTree(
                root,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
                        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                        // Build output, generated data and git's objects are not sources.
                        return name.equals("target") || (name.startsWith(".") && !dir.equals(root))
                                ? FileVisitResult.SKIP_SUBTREE
                                : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                        String rel = root.relativize(f).toString().replace('\\', '/');
                        if (rel.endsWith(".java")
                                && rel.contains("/src/main/")
                                && lines(f) > MAX_LINES) {
                            tooLong.add(rel + " (" + lines(f) + " lines)");
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
        assertThat(tooLong).as("main source files over %d lines", MAX_LINES).isEmpty();
    }

    private static long lines(Path f) {
        try (Stream<String> l = Files.lines(f)) {
            return l.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
