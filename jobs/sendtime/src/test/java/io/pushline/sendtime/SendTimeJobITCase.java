package io.pushline.sendtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.sendtime.predict.SendTimeRules;
import io.pushline.testkit.Clusters;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The send-time job in BATCH mode on a MiniCluster (parallelism 2) against a small model of
 * docs/send-time.md written from the text alone, over thousands of generated users whose activity
 * sits around the rules' windows and day boundaries, in several zones.
 */
class SendTimeJobITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final LocalDate D = LocalDate.of(2026, 3, 30); // the day after Europe's DST change
    static final String[] ZONES = {null, "UTC", "Europe/Berlin", "America/Los_Angeles"};

    @Test
    void theJobAgreesWithTheContractsModelWithTheDefaultRules() throws Exception {
        check(SendTimeRules.defaults(), 3_000, 7);
    }

    @Test
    void theJobAgreesWithTheModelUnderAnotherRulesFile() throws Exception {
        SendTimeRules rules =
                SendTimeRules.parse(
                        "timezone: America/New_York\nlookbackDays: 3\n"
                                + "first: {default: \"08:00\", rules: [{window: [\"06:00\","
                                + " \"06:59\"], minDays: 1, at: \"06:15\"}]}\n"
                                + "last: {default: \"20:00\", rules: [{window: [\"23:00\","
                                + " \"00:30\"], minDays: 2, at: \"23:10\"}]}\n");
        check(rules, 2_000, 11);
    }

    private static void check(SendTimeRules rules, int users, long seed) throws Exception {
        List<ActivityEvent> events = generate(users, seed);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        Set<SendTime> actual = new HashSet<>();
        try (CloseableIterator<SendTime> it =
                SendTimeJob.build(
                                env.fromData(events, TypeInformation.of(ActivityEvent.class)),
                                rules,
                                D)
                        .executeAndCollect()) {
            it.forEachRemaining(actual::add);
        }
        Set<SendTime> expected = model(events, rules, D);
        assertThat(expected).hasSizeGreaterThan(users / 2);
        assertThat(actual).isEqualTo(expected);
        // the generator reaches every branch: each rule and each default
        Set<String> seen = new HashSet<>();
        expected.forEach(s -> seen.add("first " + s.first));
        expected.forEach(s -> seen.add("last " + s.last));
        for (SendTimeRules.Rule r : rules.first.rules) {
            assertThat(seen).contains("first " + SendTimeRules.format(r.at));
        }
        for (SendTimeRules.Rule r : rules.last.rules) {
            assertThat(seen).contains("last " + SendTimeRules.format(r.at));
        }
        assertThat(seen)
                .contains(
                        "first " + SendTimeRules.format(rules.first.defaultMinute),
                        "last " + SendTimeRules.format(rules.last.defaultMinute));
    }

    /** docs/send-time.md, read literally. */
    static Set<SendTime> model(List<ActivityEvent> events, SendTimeRules rules, LocalDate date) {
        Map<String, Map<LocalDate, int[]>> byUser = new HashMap<>();
        for (ActivityEvent e : events) {
            ZoneId zone = e.tz != null ? ZoneId.of(e.tz) : rules.timezone;
            ZonedDateTime t = Instant.ofEpochMilli(e.ts).atZone(zone);
            LocalDate day = t.toLocalDate();
            if (!day.isBefore(date) || day.isBefore(date.minusDays(rules.lookbackDays))) {
                continue;
            }
            int minute = t.getHour() * 60 + t.getMinute();
            int[] range =
                    byUser.computeIfAbsent(e.uid, u -> new HashMap<>())
                            .computeIfAbsent(day, x -> new int[] {minute, minute});
            range[0] = Math.min(range[0], minute);
            range[1] = Math.max(range[1], minute);
        }
        Set<SendTime> out = new HashSet<>();
        for (Map.Entry<String, Map<LocalDate, int[]>> u : byUser.entrySet()) {
            out.add(
                    SendTime.of(
                            u.getKey(),
                            SendTimeRules.format(pick(u.getValue(), rules.first, 0)),
                            SendTimeRules.format(pick(u.getValue(), rules.last, 1))));
        }
        return out;
    }

    private static int pick(Map<LocalDate, int[]> days, SendTimeRules.Side side, int which) {
        for (SendTimeRules.Rule r : side.rules) {
            long count =
                    days.values().stream()
                            .filter(
                                    x -> {
                                        int m = x[which];
                                        return r.from <= r.to
                                                ? m >= r.from && m <= r.to
                                                : m >= r.from || m <= r.to;
                                    })
                            .count();
            if (count >= r.minDays) {
                return r.at;
            }
        }
        return side.defaultMinute;
    }

    /**
     * Users with a habit: a wake-up and a bedtime minute near the rules' windows, jittered per day,
     * over ten days around the look-back, plus daytime activity; some in their own zones.
     */
    static List<ActivityEvent> generate(int users, long seed) {
        Random r = new Random(seed);
        List<ActivityEvent> out = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            String uid = "u" + u;
            String tz = ZONES[r.nextInt(ZONES.length)];
            ZoneId zone = tz == null ? ZoneId.of("Asia/Shanghai") : ZoneId.of(tz);
            int wake = 5 * 60 + r.nextInt(150); // 05:00 .. 07:29
            int sleep = 21 * 60 + 30 + r.nextInt(180); // 21:30 .. 00:29
            int activeDays = 1 + r.nextInt(10);
            for (int k = 0; k < activeDays; k++) {
                LocalDate day = D.minusDays(r.nextInt(10));
                for (int m :
                        new int[] {
                            wake + r.nextInt(31) - 15, 12 * 60, sleep + r.nextInt(31) - 15
                        }) {
                    ZonedDateTime t =
                            day.atStartOfDay(zone).plusMinutes(m).plusSeconds(r.nextInt(60));
                    // the rules' zone is used only when the event carries none
                    out.add(ActivityEvent.of(uid, t.toInstant().toEpochMilli(), tz));
                }
            }
        }
        return out;
    }
}
