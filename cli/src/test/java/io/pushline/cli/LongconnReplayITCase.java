package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pushline longconn replay} end to end: local Flink with RocksDB, files in and out. */
class LongconnReplayITCase {
    @TempDir Path dir;

    private static final long T0 = 1_767_225_600_000L;

    @Test
    void aTraceReplaysToTheContractsActions() throws Exception {
        List<String> trace =
                List.of(
                        presence(T0 - 1_000, "d7", true, "\"6.9.9\""),
                        sent(T0, "m1", "d1"),
                        sent(T0, "m2", "d7"),
                        sent(T0, "m3", "d2"),
                        "",
                        "{\"ts\":"
                                + (T0 + 13_500)
                                + ",\"type\":\"ack\",\"msgId\":\"m1\",\"deviceId\":\"d1\"}",
                        presence(T0 + 2_000, "d2", false, null), // out of file order
                        "not json",
                        presence(T0, "d9", true, "\"7.0-beta\""),
                        "{\"ts\":1,\"type\":\"nack\",\"msgId\":\"m\",\"deviceId\":\"d\"}",
                        sent(T0 + 20_000, "m4", "d1"));
        Path traceFile = dir.resolve("trace.jsonl");
        Files.write(traceFile, trace, StandardCharsets.UTF_8);
        Path rules = dir.resolve("rules.yaml");
        Files.writeString(rules, "probeTries: 1\nmaxDelay: 15s\nminAckVersion: \"7\"\n");
        Path out = dir.resolve("out.jsonl");

        assertThat(
                        run(
                                "--rules",
                                rules.toString(),
                                "--trace",
                                traceFile.toString(),
                                "--out",
                                out.toString()))
                .isZero();

        assertThat(Files.readAllLines(out, StandardCharsets.UTF_8))
                .containsExactly(
                        line(T0, "m2", "d7", "untracked", 0, "null"),
                        line(T0 + 10_000, "m1", "d1", "retry", 1, "10000"),
                        line(T0 + 10_000, "m3", "d2", "fallback", 1, "10000"),
                        // m1's retry 2 would wait 20 s, more than maxDelay; the ack comes first
                        line(T0 + 13_500, "m1", "d1", "acked", 1, "13500"),
                        line(T0 + 30_000, "m4", "d1", "retry", 1, "10000"),
                        line(T0 + 50_000, "m4", "d1", "give_up", 1, "20000"));
        List<String> bad = Files.readAllLines(dir.resolve("out.jsonl.rejected"));
        assertThat(bad).hasSize(3);
        assertThat(bad.get(0)).contains("\"line\":8").contains("not valid JSON");
        assertThat(bad.get(1)).contains("\"line\":9").contains("appVersion");
        assertThat(bad.get(2)).contains("\"line\":10").contains("unknown type 'nack'");
    }

    @Test
    void badRulesStopTheRunNamingTheKey() throws Exception {
        Path trace = dir.resolve("trace.jsonl");
        Files.writeString(trace, sent(T0, "m", "d") + "\n");
        for (String[] c :
                new String[][] {
                    {"probeDelay: 0s\n", "probeDelay"},
                    {"step: 10\n", "step"},
                    {"maxDelay: soon\n", "maxDelay"},
                    {"probeTries: -2\n", "probeTries"},
                    {"minAckVersion: 7.10\n", "minAckVersion"},
                    {"retries: 3\n", "retries"}
                }) {
            Path file = dir.resolve("rules.yaml");
            Files.writeString(file, c[0]);
            Path out = dir.resolve("o.jsonl");
            Ran ran =
                    Ran.pushline(
                            "longconn",
                            "replay",
                            "--rules",
                            file.toString(),
                            "--trace",
                            trace.toString(),
                            "--out",
                            out.toString());
            assertThat(ran.code()).as(c[0]).isEqualTo(2);
            assertThat(ran.err()).as(c[0]).contains(c[1] + ":").hasLineCount(1);
            assertThat(out).as("the run does not start").doesNotExist();
        }
    }

    private static int run(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "longconn";
        all[1] = "replay";
        System.arraycopy(args, 0, all, 2, args.length);
        return Main.run(all);
    }

    private static String sent(long ts, String msgId, String deviceId) {
        return String.format(
                "{\"ts\":%d,\"type\":\"sent\",\"msgId\":\"%s\",\"deviceId\":\"%s\"}",
                ts, msgId, deviceId);
    }

    private static String presence(long ts, String deviceId, boolean online, String version) {
        return String.format(
                "{\"ts\":%d,\"type\":\"presence\",\"deviceId\":\"%s\",\"online\":%s%s}",
                ts, deviceId, online, version == null ? "" : ",\"appVersion\":" + version);
    }

    private static String line(
            long ts, String msgId, String deviceId, String action, int attempt, String delay) {
        return String.format(
                "{\"ts\":%d,\"msgId\":\"%s\",\"deviceId\":\"%s\",\"action\":\"%s\",\"attempt\":%d,"
                        + "\"delayMs\":%s}",
                ts, msgId, deviceId, action, attempt, delay);
    }
}
