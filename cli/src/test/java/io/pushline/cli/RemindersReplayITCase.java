package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pushline reminders replay} end to end: local Flink with RocksDB, files in and out. */
class RemindersReplayITCase {
    @TempDir Path dir;

    /** 2026-01-18 10:00 in Shanghai; its freeze is 16:00 UTC the day before. */
    static final long FIRE = 1_768_701_600_000L;

    static final long FREEZE = 1_768_665_600_000L;

    @Test
    void aTraceReplaysToTheContractsLines() throws Exception {
        List<String> trace =
                List.of(
                        task("create", 1_000, "t1", FIRE, "Asia/Shanghai"),
                        user("subscribe", 1_001, "t1", "u1"),
                        user("subscribe", 1_002, "t1", "u2"),
                        user("subscribe", 1_003, "t1", "u3"),
                        user("subscribe", 1_004, "t1", "u4"),
                        user("subscribe", 1_004, "t1", "u4"),
                        user("subscribe", 1_005, "t1", "u5"),
                        user("pull", 1_006, "t1", "u3"), // not frozen yet
                        "",
                        user("subscribe", 1_007, "t9", "u3"), // no such task
                        user("pull", FREEZE, "t1", "u3"),
                        task("update", FREEZE, "t1", FIRE + 1, "Asia/Shanghai"), // frozen
                        // Berlin: 03:00 on the 18th, after Shanghai's t1 in the same second
                        task("create", 1_000, "t2", FIRE + 500, "Europe/Berlin"),
                        user("subscribe", 1_010, "t2", "u7"),
                        user("subscribe", 1_010, "t2", "u1"),
                        user("subscribe", FIRE, "t1", "u8"), // fired: closed
                        "not json",
                        "{\"ts\":1.5,\"type\":\"pull\",\"taskId\":\"t1\",\"uid\":\"u3\"}",
                        task("create", 1, "t3", 5, "posixrules"));
        Path traceFile = dir.resolve("trace.jsonl");
        Files.write(traceFile, trace, StandardCharsets.UTF_8); // times out of file order
        Path rules = dir.resolve("rules.yaml");
        Files.writeString(rules, "rate: 2   # pushes per second\n");
        Path out = dir.resolve("out.jsonl");

        assertThat(
                        Main.run(
                                new String[] {
                                    "reminders",
                                    "replay",
                                    "--rules",
                                    rules.toString(),
                                    "--trace",
                                    traceFile.toString(),
                                    "--out",
                                    out.toString()
                                }))
                .isZero();

        List<String> lines = new ArrayList<>(Files.readAllLines(out, StandardCharsets.UTF_8));
        Collections.sort(lines);
        List<String> expected =
                new ArrayList<>(
                        List.of(
                                push("t1", "u1", FIRE),
                                push("t1", "u2", FIRE),
                                push("t1", "u4", FIRE + 1000),
                                push("t1", "u5", FIRE + 1000),
                                push("t2", "u1", FIRE + 2000),
                                push("t2", "u7", FIRE + 2000),
                                "{\"taskId\":\"t1\",\"uid\":\"u3\",\"action\":\"pulled\",\"at\":"
                                        + FIRE
                                        + "}",
                                rejected(1_006, "t1", "\"u3\"", "not_frozen"),
                                rejected(1_007, "t9", "\"u3\"", "unknown_task"),
                                rejected(FREEZE, "t1", "null", "frozen"),
                                rejected(FIRE, "t1", "\"u8\"", "closed")));
        Collections.sort(expected);
        assertThat(lines).isEqualTo(expected);

        List<String> bad = Files.readAllLines(dir.resolve("out.jsonl.rejected"));
        assertThat(bad).hasSize(3);
        assertThat(bad.get(0)).contains("\"line\":17").contains("not valid JSON");
        assertThat(bad.get(1)).contains("\"line\":18").contains("field 'ts' must be an integer");
        assertThat(bad.get(2)).contains("\"line\":19").contains("unknown zone 'posixrules'");
    }

    @Test
    void badRulesStopTheRunNamingTheKey() throws Exception {
        Path trace = dir.resolve("trace.jsonl");
        Files.writeString(trace, "");
        for (String rules : List.of("rate: 0\n", "rate: fast\n", "rates: 5\n", "rate: [1]\n")) {
            Path file = dir.resolve("rules.yaml");
            Files.writeString(file, rules);
            Ran ran =
                    Ran.pushline(
                            "reminders",
                            "replay",
                            "--rules",
                            file.toString(),
                            "--trace",
                            trace.toString(),
                            "--out",
                            dir.resolve("o").toString());
            assertThat(ran.code()).as(rules).isEqualTo(2);
            assertThat(ran.err()).startsWith("pushline: ").contains("rate").hasLineCount(1);
        }
    }

    private static String task(String op, long ts, String id, long fireAt, String zone) {
        return String.format(
                "{\"ts\":%d,\"type\":\"task\",\"op\":\"%s\",\"taskId\":\"%s\",\"fireAt\":%d,"
                        + "\"zone\":\"%s\",\"title\":\"T\",\"body\":\"B\"}",
                ts, op, id, fireAt, zone);
    }

    private static String user(String type, long ts, String task, String uid) {
        return String.format(
                "{\"ts\":%d,\"type\":\"%s\",\"taskId\":\"%s\",\"uid\":\"%s\"}",
                ts, type, task, uid);
    }

    private static String push(String task, String uid, long at) {
        return String.format(
                "{\"taskId\":\"%s\",\"uid\":\"%s\",\"action\":\"push\",\"at\":%d}", task, uid, at);
    }

    private static String rejected(long ts, String task, String uid, String reason) {
        return String.format(
                "{\"ts\":%d,\"taskId\":\"%s\",\"uid\":%s,\"action\":\"rejected\",\"reason\":\"%s\"}",
                ts, task, uid, reason);
    }
}
