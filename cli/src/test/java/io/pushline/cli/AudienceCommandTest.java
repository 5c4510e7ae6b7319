package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pushline audience eval} in folder mode, as docs/audience-expressions.md specifies it.
 */
class AudienceCommandTest {
    @TempDir Path dir;
    @TempDir Path elsewhere;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void segments() throws Exception {
        Files.writeString(dir.resolve("sports.txt"), "u1\n u2 \n\nu3\n");
        Files.writeString(dir.resolve("beijing.txt"), "u2\nu3\nu4\n");
        Files.writeString(dir.resolve("churned.txt"), "u3\n");
        Files.createDirectories(dir.resolve("fans"));
        Files.writeString(dir.resolve("fans/host42.txt"), "u1\nu5\n");
        Files.writeString(dir.resolve("OR.txt"), "u6\n");
        Files.writeString(elsewhere.resolve("universe.txt"), "u7\nu8\n");
    }

    private int run(String... args) throws Exception {
        String[] all = new String[args.length + 3];
        all[0] = "eval";
        all[1] = "--segments";
        all[2] = dir.toString();
        System.arraycopy(args, 0, all, 3, args.length);
        return command(all);
    }

    private int command(String... all) throws Exception {
        PrintStream o = System.out;
        PrintStream e = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            String[] line = new String[all.length + 1];
            line[0] = "audience";
            System.arraycopy(all, 0, line, 1, all.length);
            return Main.run(line);
        } finally {
            System.setOut(o);
            System.setErr(e);
        }
    }

    private List<String> lines() {
        String s = out.toString(StandardCharsets.UTF_8);
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
    }

    @Test
    void printsTheMatchingUids() throws Exception {
        assertThat(run("--expr", "sports AND beijing AND NOT churned")).isZero();
        assertThat(lines()).containsExactlyInAnyOrder("u2");
    }

    @Test
    void notIsTheComplementWithinTheFoldersUidsAndTheUniverseFile() throws Exception {
        assertThat(run("--expr", "NOT (sports OR beijing)")).isZero();
        assertThat(lines()).containsExactlyInAnyOrder("u5", "u6");
        out.reset();
        assertThat(
                        run(
                                "--expr",
                                "NOT (sports OR beijing)",
                                "--universe",
                                elsewhere.resolve("universe.txt").toString(),
                                "--count"))
                .isZero();
        assertThat(lines()).containsExactly("4");
    }

    @Test
    void quotedNamesAndNamesWithSlashes() throws Exception {
        assertThat(run("--expr", "fans/host42 || \"OR\"", "--count")).isZero();
        assertThat(lines()).containsExactly("3");
    }

    @Test
    void aRejectedExpressionExitsTwoWithColumnAndCaret() throws Exception {
        assertThat(run("--expr", "sports AND beijng")).isEqualTo(2);
        assertThat(out.size()).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "column 12: unknown segment 'beijng' (did you mean 'beijing'?)\n"
                                + "sports AND beijng\n"
                                + "           ^\n");
    }

    @Test
    void countPrintsTheExactSize() throws Exception {
        assertThat(command("count", "sports OR beijing", "--segments", dir.toString())).isZero();
        assertThat(lines()).containsExactly("4");
    }

    @Test
    void explainPrintsTheTreeWithEachNodesSize() throws Exception {
        assertThat(
                        command(
                                "explain",
                                "sports AND (beijing OR fans/host42) AND NOT churned",
                                "--segments",
                                dir.toString()))
                .isZero();
        assertThat(lines())
                .containsExactly(
                        "(sports AND (beijing OR fans/host42) AND NOT churned)",
                        "AND                                2",
                        "├── sports                         3",
                        "├── OR                             5",
                        "│   ├── beijing                    3",
                        "│   └── fans/host42                2",
                        "└── NOT                            5",
                        "    └── churned                    1");
    }

    @Test
    void explainReportsABadExpressionLikeEval() throws Exception {
        assertThat(command("explain", "sports AND (", "--segments", dir.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("column 13: ");
    }

    @Test
    void aMissingSegmentsFolderIsAUsageErrorNotACrash() throws Exception {
        assertThat(command("count", "a", "--segments", dir.resolve("nope").toString()))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("pushline: --segments: no folder ")
                .hasLineCount(1);
    }
}
