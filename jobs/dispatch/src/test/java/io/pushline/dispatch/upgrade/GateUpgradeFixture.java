package io.pushline.dispatch.upgrade;

import io.pushline.local.LocalFlink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.flink.core.execution.JobClient;

/**
 * Writes the savepoint {@link GateUpgradeITCase} restores: the job of this version after part A of
 * {@link UpgradeTrace}, stopped with a canonical savepoint (not drained: the last push still
 * waits). Run it once per gate state schema, before the change, and commit the folder, e.g.
 *
 * <pre>java -cp jobs/dispatch/target/test-classes:jobs/dispatch/target/classes:$(cat cp.txt) \
 *   io.pushline.dispatch.upgrade.GateUpgradeFixture \
 *   jobs/dispatch/src/test/resources/savepoints/gate-v3
 * </pre>
 *
 * <p>gate-v3: GateState as wire form 2 wrote it (no lastPass), Pushline of 2026-11-24.
 */
public final class GateUpgradeFixture {
    private GateUpgradeFixture() {}

    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args[0]).toAbsolutePath();
        Path work = Files.createTempDirectory("gate-upgrade-fixture");
        Path input = Files.createDirectories(work.resolve("input"));
        UpgradeTrace trace = new UpgradeTrace();
        JobClient job =
                UpgradeRun.start(LocalFlink.configuration(work.resolve("flink")), input, null, "v");
        UpgradeRun.write(input, "a.jsonl", trace.partA);
        UpgradeRun.awaitDecided("v", UpgradeRun.pushTimes(trace.partA), UpgradeTrace.CUT);
        Path written =
                Paths.get(java.net.URI.create(UpgradeRun.stop(job, false, work.resolve("sp"))));
        Files.createDirectories(out);
        try (var files = Files.list(written)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, out.resolve(f.getFileName()));
            }
        }
        System.out.println("savepoint of part A written to " + out);
        System.exit(0);
    }
}
