package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pushline audience build | list | count | explain | eval} against the real embedded HBase
 * and Kafka: what a strategist does after the upstream teams deliver their package files.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class AudienceStoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @TempDir Path files;
    @TempDir Path home;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void buildThenQueryTheStore() throws Exception {
        Files.write(files.resolve("sports.txt"), uids(0, 300));
        Files.write(files.resolve("churned.txt"), uids(100, 400));
        Files.createDirectories(files.resolve("fans"));
        Files.write(files.resolve("fans/host42.txt"), List.of("u0005", "u0150", "u9999", "x y"));

        assertThat(audience("build", "--files", files.toString())).isZero();
        assertThat(lines())
                .contains(
                        "churned v1: 300 members (file: 300 rows, 0 adds, 0 removes)",
                        "fans/host42 v1: 3 members (file: 3 rows, 0 adds, 0 removes)",
                        "sports v1: 300 members (file: 300 rows, 0 adds, 0 removes)");
        assertThat(lines().get(3))
                .startsWith("3 segments built from 604 rows")
                .contains("1 rows rejected");

        assertThat(audience("list")).isZero();
        assertThat(lines().get(0)).startsWith("SEGMENT");
        assertThat(lines()).anyMatch(l -> l.matches("sports\\s+300\\s+v1\\s+\\d+s\\s+file"));

        assertThat(audience("count", "sports AND NOT churned OR fans/host42")).isZero();
        assertThat(lines()).containsExactly("102");

        assertThat(audience("eval", "--expr", "fans/host42 AND NOT churned")).isZero();
        assertThat(lines()).containsExactlyInAnyOrder("u0005", "u9999");

        // The universe is every uid the dictionary knows: 0..399 and u9999.
        assertThat(audience("count", "NOT (sports OR churned)")).isZero();
        assertThat(lines()).containsExactly("1");

        assertThat(audience("explain", "sports AND NOT churned")).isZero();
        assertThat(lines())
                .containsExactly(
                        "(sports AND NOT churned)",
                        "AND                          100",
                        "├── sports                   300",
                        "└── NOT                      101",
                        "    └── churned              300");

        assertThat(audience("eval", "--expr", "sports AND NOT churnd")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "column 16: unknown segment 'churnd' (did you mean 'churned'?)\n"
                                + "sports AND NOT churnd\n"
                                + "               ^\n");
    }

    private int audience(String... args) throws Exception {
        LocalStack stack = STACK.get();
        List<String> all = new ArrayList<>(Arrays.asList(args));
        all.addAll(
                List.of(
                        "--hbase.zookeeper.quorum",
                        stack.hbaseZkQuorum(),
                        "--kafka.bootstrap-servers",
                        stack.kafkaBootstrap(),
                        "--hbase.namespace",
                        "itaudiencecli"));
        out.reset();
        err.reset();
        PrintStream o = System.out;
        PrintStream e = System.err;
        String before = System.getProperty("pushline.home");
        System.setProperty("pushline.home", home.toString());
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            List<String> line = new ArrayList<>(all);
            line.add(0, "audience");
            return Main.run(line.toArray(new String[0]));
        } finally {
            System.setOut(o);
            System.setErr(e);
            if (before == null) {
                System.clearProperty("pushline.home");
            } else {
                System.setProperty("pushline.home", before);
            }
        }
    }

    private List<String> lines() {
        String s = out.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
    }

    private static List<String> uids(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> String.format("u%04d", i))
                .collect(Collectors.toList());
    }
}
