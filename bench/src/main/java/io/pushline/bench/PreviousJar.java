package io.pushline.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A job's shaded jar as an earlier revision of this repository builds it, for an upgrade from that
 * version: checked out into a git worktree, built with Maven (tests skipped), kept under {@code
 * cache} by commit so the next run takes it from there.
 */
final class PreviousJar {
    private PreviousJar() {}

    static Path build(Path root, String revision, String job, Path cache)
            throws IOException, InterruptedException {
        String commit = run(root, List.of("git", "rev-parse", "--verify", revision + "^{commit}"));
        commit = commit.strip();
        Path jar = cache.resolve(commit.substring(0, 12)).resolve("pushline-" + job + "-job.jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        Path tree = Files.createTempDirectory("pushline-" + commit.substring(0, 12));
        System.out.printf(
                "  building the %s job of %s (%s) for the upgrade step ...%n",
                job, revision, commit.substring(0, 12));
        long t0 = System.currentTimeMillis();
        run(root, List.of("git", "worktree", "add", "--detach", tree.toString(), commit));
        try {
            run(
                    tree,
                    List.of(
                            "mvn",
                            "-B",
                            "-q",
                            "package",
                            "-DskipTests",
                            "-Dspotless.check.skip=true",
                            "-pl",
                            "jobs/" + job,
                            "-am"));
            Path built;
            try (Stream<Path> files =
                    Files.list(tree.resolve("jobs").resolve(job).resolve("target"))) {
                built =
                        files.filter(p -> p.getFileName().toString().endsWith("-job.jar"))
                                .findFirst()
                                .orElseThrow(
                                        () -> new IOException("no -job.jar built at " + revision));
            }
            Files.createDirectories(jar.getParent());
            Files.copy(built, jar, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            run(root, List.of("git", "worktree", "remove", "--force", tree.toString()));
        }
        System.out.printf("  built in %.0f s: %s%n", (System.currentTimeMillis() - t0) / 1e3, jar);
        return jar;
    }

    private static String run(Path dir, List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb =
                new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed in " + dir + ":\n" + out);
        }
        return out;
    }
}
