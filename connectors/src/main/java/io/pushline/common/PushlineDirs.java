package io.pushline.common;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The folders every local tool agrees on: Pushline's home ({@code .pushline}) and the production
 * Flink configuration ({@code deploy/flink-conf}). Here, not in the embedded stack, because the
 * real cluster ({@code ./pushline cluster}) needs them too and must not depend on the embedded one.
 */
public final class PushlineDirs {
    /** System property naming the folder of Flink's {@code config.yaml}. */
    public static final String FLINK_CONF_DIR_PROPERTY = "pushline.flink-conf-dir";

    /** Environment variable naming the folder of Flink's {@code config.yaml}. */
    public static final String FLINK_CONF_DIR_ENV = "PUSHLINE_FLINK_CONF_DIR";

    private PushlineDirs() {}

    /**
     * Pushline's home: system property {@code pushline.home}, else {@code $PUSHLINE_HOME}, else
     * {@code .pushline} in the working folder.
     */
    public static Path home() {
        String home = System.getProperty("pushline.home", System.getenv("PUSHLINE_HOME"));
        return Paths.get(home == null || home.isBlank() ? ".pushline" : home).toAbsolutePath();
    }

    /**
     * The folder of the production {@code config.yaml}: set explicitly, else the nearest {@code
     * deploy/flink-conf} upwards from the working folder; null when there is none.
     */
    public static Path flinkConfDir() {
        String explicit =
                System.getProperty(FLINK_CONF_DIR_PROPERTY, System.getenv(FLINK_CONF_DIR_ENV));
        if (explicit != null && !explicit.isBlank()) {
            return Paths.get(explicit);
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("deploy").resolve("flink-conf");
            if (Files.isRegularFile(candidate.resolve("config.yaml"))) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Deletes a file or a folder with everything in it; nothing when it does not exist. Files that
     * vanish meanwhile (Flink still discarding a finished job's checkpoints) are no error.
     */
    public static void deleteRecursively(Path p) throws IOException {
        Files.walkFileTree(
                p,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path f, BasicFileAttributes a)
                            throws IOException {
                        Files.deleteIfExists(f);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path f, IOException e)
                            throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return FileVisitResult.CONTINUE;
                        }
                        throw e;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException e)
                            throws IOException {
                        if (e != null && !(e instanceof NoSuchFileException)) {
                            throw e;
                        }
                        try {
                            Files.deleteIfExists(d);
                        } catch (DirectoryNotEmptyException late) {
                            // Something wrote into it meanwhile: walk it again.
                            deleteRecursively(d);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
    }
}
