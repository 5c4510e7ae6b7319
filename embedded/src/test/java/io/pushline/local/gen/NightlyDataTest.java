package io.pushline.local.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NightlyDataTest {
    @TempDir Path dir;

    @Test
    void theSameSeedGivesTheSameFilesAndAnotherSeedOthers() throws Exception {
        LocalDate date = LocalDate.of(2026, 11, 22);
        new NightlyData(5, date, 9).write(dir.resolve("a"), 300);
        new NightlyData(5, date, 9).write(dir.resolve("b"), 300);
        new NightlyData(6, date, 9).write(dir.resolve("c"), 300);
        for (String f : List.of("users.jsonl", "devices.jsonl", "activity.jsonl", "truth.jsonl")) {
            assertThat(Files.readAllLines(dir.resolve("a").resolve(f)))
                    .as(f)
                    .isEqualTo(Files.readAllLines(dir.resolve("b").resolve(f)));
        }
        assertThat(Files.readAllLines(dir.resolve("a").resolve("activity.jsonl")))
                .isNotEqualTo(Files.readAllLines(dir.resolve("c").resolve("activity.jsonl")));
        assertThat(Files.readAllLines(dir.resolve("a").resolve("truth.jsonl"))).hasSize(300);
    }

    @Test
    void eachActiveDayStartsNearTheWakeUpAndEndsNearTheBedtime() {
        LocalDate date = LocalDate.of(2026, 11, 22);
        NightlyData data = new NightlyData(5, date, 9);
        NightlyData.User u = data.user(42);
        java.time.ZoneId zone = java.time.ZoneId.of(u.tz());
        java.util.Map<LocalDate, int[]> days = new java.util.TreeMap<>();
        data.activity(
                u,
                e -> {
                    var t = java.time.Instant.ofEpochMilli(e.ts).atZone(zone);
                    int m = t.getHour() * 60 + t.getMinute();
                    int[] r = days.computeIfAbsent(t.toLocalDate(), x -> new int[] {m, m});
                    r[0] = Math.min(r[0], m);
                    r[1] = Math.max(r[1], m);
                });
        assertThat(days).isNotEmpty();
        assertThat(days.keySet()).allMatch(d -> d.isBefore(date) && !d.isBefore(date.minusDays(9)));
        assertThat(days.values()).allMatch(r -> Math.abs(r[0] - u.wake()) <= 75);
        assertThat(days.values())
                .allMatch(r -> Math.abs(r[1] - u.sleep()) <= 100 || r[1] == 23 * 60 + 59);
    }
}
