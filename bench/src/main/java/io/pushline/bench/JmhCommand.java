package io.pushline.bench;

import io.pushline.common.PushlineDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code ./pushline bench jmh [REGEX] [JMH options]}: the micro benchmarks of {@code
 * io.pushline.bench.jmh} with JMH's own runner. Without options: one fork, 3 warm-up and 5 measured
 * iterations of 2 s each; results as JSON in {@code .pushline/bench/jmh.json}.
 */
@Command(
        name = "jmh",
        description = {
            "JMH micro benchmarks of the hot paths: [REGEX] [JMH options]; -h gives JMH's own"
                    + " options."
        })
final class JmhCommand implements Callable<Integer> {
    /** Everything after {@code jmh} goes to JMH's runner as given. */
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        List<String> jmh = new ArrayList<>(args);
        boolean hasOptions = jmh.stream().anyMatch(a -> a.startsWith("-"));
        if (!hasOptions) {
            Path out = PushlineDirs.home().resolve("bench").resolve("jmh.json");
            Files.createDirectories(out.getParent());
            jmh.addAll(
                    List.of(
                            "-f",
                            "1",
                            "-wi",
                            "3",
                            "-i",
                            "5",
                            "-w",
                            "2s",
                            "-r",
                            "2s",
                            "-rf",
                            "json",
                            "-rff",
                            out.toString()));
            System.out.println("bench jmh: results also in " + out);
        }
        if (jmh.isEmpty() || jmh.get(0).startsWith("-")) {
            jmh.add(0, "io\\.pushline\\.bench\\.jmh\\..*");
        }
        org.openjdk.jmh.Main.main(jmh.toArray(new String[0]));
        return 0;
    }
}
