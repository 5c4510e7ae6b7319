package io.pushline.dispatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** What the kill-and-restore ITCases share: starting the job, its checkpoints, waiting. */
final class Restores {
    private Restores() {}

    /** Starts the dispatch job at parallelism 2 and returns at once. */
    static JobClient start(Configuration flink, Map<String, String> opts) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        return DispatchJob.start(env, Configuration.fromMap(opts));
    }

    /** The newest completed checkpoint of {@code job} under {@code checkpoints}. */
    static Optional<Path> latest(Path checkpoints, JobID job) {
        Path dir = checkpoints.resolve(job.toHexString());
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.exists(p.resolve("_metadata")))
                    .max((a, b) -> Integer.compare(number(a), number(b)));
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    /** The number of the newest completed checkpoint, 0 before the first. */
    static int latestNumber(Path checkpoints, JobID job) {
        return latest(checkpoints, job).map(Restores::number).orElse(0);
    }

    /**
     * Waits until {@code job} has completed {@code more} checkpoints after the newest one now;
     * fails naming {@code what} after {@code wait}.
     */
    static void awaitCheckpoints(Path checkpoints, JobID job, int more, String what, Duration wait)
            throws Exception {
        int now = latestNumber(checkpoints, job);
        waitUntil(() -> latestNumber(checkpoints, job) >= now + more, what, wait);
    }

    static int number(Path chk) {
        return Integer.parseInt(chk.getFileName().toString().substring("chk-".length()));
    }

    /** A counter of an operator of {@code job}, summed over its subtasks. */
    static long counter(InMemoryReporter metrics, JobID job, String operator, String counter) {
        long n = 0;
        for (OperatorMetricGroup g : metrics.findOperatorMetricGroups(job, operator)) {
            Metric m = metrics.getMetricsByGroup(g).get(counter);
            if (m != null) {
                n += ((Counter) m).getCount();
            }
        }
        return n;
    }

    /**
     * Polls {@code condition} every 100 ms until it holds; fails naming {@code what} after {@code
     * wait}.
     */
    static void waitUntil(BooleanSupplier condition, String what, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }
}
