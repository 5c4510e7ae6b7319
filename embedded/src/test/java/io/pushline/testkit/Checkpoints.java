package io.pushline.testkit;

import io.pushline.local.LocalFlink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;

/** What the kill-and-restore ITCases share: a job's checkpoints on disk, and waiting. */
public final class Checkpoints {
    private Checkpoints() {}

    /**
     * {@code flink} with the checkpoint settings production runs with (frequent, unaligned), its
     * checkpoints under {@code dir} and kept when the job is cancelled, to restore from.
     */
    public static Configuration retained(Configuration flink, Path dir) {
        // not production's 10 ms flush: restore ITs 101 -> 86 CPU-s, the same wall time
        LocalFlink.withProductionCheckpointing(flink);
        flink.setString("execution.checkpointing.dir", dir.toUri().toString());
        flink.setString(
                "execution.checkpointing.externalized-checkpoint-retention",
                "RETAIN_ON_CANCELLATION");
        return flink;
    }

    /** The newest completed checkpoint of {@code job} under {@code checkpoints}. */
    public static Optional<Path> latest(Path checkpoints, JobID job) {
        Path dir = checkpoints.resolve(job.toHexString());
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .max((a, b) -> Integer.compare(number(a), number(b)));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The number of the newest completed checkpoint, 0 before the first. */
    public static int latestNumber(Path checkpoints, JobID job) {
        return latest(checkpoints, job).map(Checkpoints::number).orElse(0);
    }

    /**
     * Waits until {@code job} has completed {@code more} checkpoints after the newest one now;
     * fails naming {@code what} after {@code wait}.
     */
    public static void awaitMore(Path checkpoints, JobID job, int more, String what, Duration wait)
            throws Exception {
        int now = latestNumber(checkpoints, job);
        waitUntil(() -> latestNumber(checkpoints, job) >= now + more, what, wait);
    }

    /**
     * Waits until {@code job} has completed a checkpoint that was triggered after this call, so
     * that it holds what the job did before it; fails naming {@code what} after {@code wait}. The
     * next checkpoint to complete may be one already under way, taken before: a restore from it
     * could start over what the caller waited for (the storage makes a checkpoint's folder when it
     * is triggered, so the newest folder now, complete or not, is the last one to skip).
     */
    public static void awaitOneTriggeredAfterNow(
            Path checkpoints, JobID job, String what, Duration wait) throws Exception {
        int begun = newestFolder(checkpoints, job);
        waitUntil(() -> latestNumber(checkpoints, job) > begun, what, wait);
    }

    /** The number of the newest checkpoint folder of {@code job}, completed or not; 0 if none. */
    private static int newestFolder(Path checkpoints, JobID job) {
        Path dir = checkpoints.resolve(job.toHexString());
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .mapToInt(Checkpoints::number)
                    .max()
                    .orElse(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static int number(Path chk) {
        return Integer.parseInt(chk.getFileName().toString().substring("chk-".length()));
    }

    /**
     * Polls {@code condition} every 100 ms until it holds; fails naming {@code what} after {@code
     * wait}.
     */
    public static void waitUntil(BooleanSupplier condition, String what, Duration wait)
            throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
