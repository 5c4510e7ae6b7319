package io.pushline.dispatch.pacing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pushline.schema.DropReason;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingControl;
import io.pushline.schema.pacing.PacingStatus;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

class PacerTest {

    @Test
    void aBacklogLeavesAtTheVendorsRateEverySecondAndOverTenSeconds() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("xiaomi", 1000.0, "fcm", 300.0))) {
            p.push("xiaomi", 1, 15_000);
            p.push("fcm", 1, 5_000);
            p.runUntil(10_000);
            for (long second = 0; second < 10; second++) {
                long x = p.sentBetween("xiaomi", second * 1000, second * 1000 + 1000);
                long f = p.sentBetween("fcm", second * 1000, second * 1000 + 1000);
                assertThat(x).as("xiaomi in second %d", second).isBetween(990L, 1050L);
                assertThat(f).as("fcm in second %d", second).isBetween(297L, 315L);
            }
            assertThat(p.sentBetween("xiaomi", 0, 10_000)).isBetween(9_900L, 10_100L);
            assertThat(p.sentBetween("fcm", 0, 10_000)).isBetween(2_970L, 3_030L);
        }
    }

    /**
     * A tick that fires late (the pacer's thread waited for a core, a checkpoint's synchronous part
     * ran) sends what the time since the last tick earned: late ticks cost no rate, whether every
     * tick is 15 ms late or they come unevenly.
     */
    @Test
    void aBacklogKeepsItsRateWhenTicksFireLate() throws Exception {
        for (long[] steps : new long[][] {{25}, {5, 35}, {3, 3, 60, 10}}) {
            try (PacerHarness p = new PacerHarness(Map.of("huawei", 3000.0))) {
                // more than the 30,300 ten seconds may send: a backlog throughout
                p.push("huawei", 1, 32_000);
                p.runUntilInJumps(10_000, steps);
                assertThat(p.sentBetween("huawei", 0, 10_000))
                        .as("sent in 10 s with jumps of %s ms", java.util.Arrays.toString(steps))
                        .isBetween(29_700L, 30_300L);
                // a send at the end of a gap pays for the gap, which may start before the second
                long longestGap = java.util.Arrays.stream(steps).max().getAsLong();
                long most = (long) (3000 * 1.025 * (1000 + longestGap + 20) / 1000);
                for (long from = 0; from <= 9_000; from += 250) {
                    assertThat(p.sentBetween("huawei", from, from + 1000))
                            .as("sends in [%d, %d), gaps %s", from, from + 1000, steps.length)
                            .isLessThanOrEqualTo(most);
                }
            }
        }
    }

    @Test
    void anySlidingSecondStaysUnderOnePointZeroFiveTimesTheRate() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("oppo", 2000.0))) {
            p.runUntil(3_000); // idle: the bucket is full when the burst comes
            p.push("oppo", 0, 12_000);
            p.runUntil(9_000);
            for (long from = 3_000; from <= 8_000; from += 7) {
                assertThat(p.sentBetween("oppo", from, from + 1000))
                        .as("sends in [%d, %d)", from, from + 1000)
                        .isLessThanOrEqualTo(2_100L);
            }
        }
    }

    @Test
    void levelsWithABacklogShareTheRateByWeight() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("huawei", 1400.0))) {
            p.push("huawei", 0, 10_000);
            p.push("huawei", 1, 10_000);
            p.push("huawei", 2, 10_000);
            p.runUntil(5_000);
            // from 100 ms: the first sends used the full bucket before anything waited
            long total = p.sentBetween("huawei", 100, 5_000);
            double[] weights = {1, 2, 4};
            for (int level = 0; level < 3; level++) {
                double share = (double) p.sentAtLevel(level, 100, 5_000) / total;
                assertThat(share)
                        .as("level %d's share", level)
                        .isCloseTo(weights[level] / 7, within(0.02 * weights[level] / 7));
            }
        }
    }

    @Test
    void aLowLevelNeverWaitsWithoutProgressBehindAHeavyOne() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("vivo", 500.0))) {
            p.push("vivo", 0, 1_000);
            p.push("vivo", 2, 20_000); // weight 4: level 0 still gets one send in five
            p.runUntil(4_000);
            for (long second = 0; second < 4; second++) {
                assertThat(p.sentAtLevel(0, second * 1000, second * 1000 + 1000))
                        .as("level 0 in second %d", second)
                        .isBetween(90L, 110L);
            }
        }
    }

    @Test
    void aRealtimePushGoesAheadOfABulkBacklog() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("honor", 1000.0))) {
            // far more than the 4,000 the test's 4 s can send: the backlog never runs dry
            p.push("honor", 1, 10_000);
            p.push("honor", 2, 10_000);
            p.runUntil(2_000);
            for (int i = 0; i < 20; i++) {
                long at = p.now;
                p.push("honor", 3, 1);
                p.runUntil(at + 97);
                List<PacerHarness.Out> realtime =
                        p.sent.stream().filter(o -> o.send().level == 3).toList();
                assertThat(realtime).hasSize(i + 1);
                assertThat(realtime.get(i).at() - at)
                        .as("wait of realtime push %d", i)
                        .isLessThanOrEqualTo(10L);
            }
        }
    }

    /** The reports carry the pacer's event time: how far behind the stages before it are. */
    @Test
    void reportsGiveTheBacklogAndTheEventTimeReachedFiveTimesASecond() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("honor", 1000.0))) {
            p.push("honor", 1, 5_000);
            p.h.processWatermark1(new Watermark(777));
            p.runUntil(1_000);
            List<PacingStatus> reports =
                    p.h.getSideOutput(DispatchTags.PACING_STATUS).stream()
                            .map(StreamRecord::getValue)
                            .toList();
            assertThat(reports).hasSize(5);
            PacingStatus last = reports.get(reports.size() - 1);
            assertThat(last.vendor).isEqualTo("honor");
            assertThat(last.watermark).isEqualTo(777);
            assertThat(last.ts).isEqualTo(1_000);
            assertThat(last.backlog).isBetween(3_900L, 4_100L); // 1,000 of 5,000 left in 1 s
        }
    }

    @Test
    void aRateChangeAppliesWithoutRestart() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("apns", 1000.0))) {
            p.push("apns", 1, 20_000);
            p.runUntil(2_000);
            p.control(config("apns", 250));
            p.runUntil(5_000);
            assertThat(p.sentBetween("apns", 1_000, 2_000)).isBetween(990L, 1_020L);
            assertThat(p.sentBetween("apns", 3_000, 5_000)).isBetween(495L, 510L);
        }
    }

    @Test
    void throttlingCutsTheRateOnceThenItRecoversAdditively() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("fcm", 1000.0))) {
            p.push("fcm", 1, 50_000);
            p.runUntil(1_000);
            p.control(PacingControl.feedback("fcm", PacingControl.THROTTLED, 429));
            p.control(PacingControl.feedback("fcm", PacingControl.THROTTLED, 429)); // same burst
            p.runUntil(2_000);
            assertThat(p.sentBetween("fcm", 1_000, 2_000)).isBetween(495L, 515L);
            // after the cooldown, +5% of 1000/s per second: back to 1000/s ten seconds later
            p.runUntil(14_000);
            assertThat(p.sentBetween("fcm", 2_000, 3_000)).isBetween(500L, 560L);
            assertThat(p.sentBetween("fcm", 6_000, 7_000)).isBetween(680L, 760L);
            assertThat(p.sentBetween("fcm", 13_000, 14_000)).isBetween(990L, 1_020L);
        }
    }

    @Test
    void sendsPastTheirDeadlineAreDroppedAsExpiredWithoutUsingARateToken() throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of("xiaomi", 100.0))) {
            p.push("xiaomi", 1, 300, 1_500L);
            p.push("xiaomi", 0, 100);
            p.runUntil(4_000);
            long inTime = p.sent.stream().filter(o -> o.send().level == 1).count();
            assertThat(p.sent.stream().filter(o -> o.send().level == 1))
                    .allMatch(o -> o.at() <= 1_500);
            assertThat(p.expired).hasSize((int) (300 - inTime));
            assertThat(p.expired)
                    .allMatch(d -> d.reason.equals("expired"))
                    .allMatch(d -> d.code == DropReason.EXPIRED.code());
            assertThat(inTime).isBetween(90L, 110L); // 2/3 of 150 tokens by 1.5 s, weight 2 of 3
            assertThat(p.sentAtLevel(0, 0, 4_000)).isEqualTo(100);
        }
    }

    @Test
    void theBacklogSurvivesARestoreWithNothingLostOrRepeated() throws Exception {
        OperatorSubtaskState snapshot;
        java.util.Set<String> before = new java.util.HashSet<>();
        try (PacerHarness p = new PacerHarness(Map.of("vivo", 1000.0))) {
            p.push("vivo", 1, 3_000);
            p.push("vivo", 4, 500);
            p.runUntil(1_000);
            p.sent.forEach(o -> before.add(o.send().deviceId));
            snapshot = p.snapshot();
        }
        PacingConfig config = new PacingConfig(Map.of("vivo", 1000.0), Map.of(), 3);
        try (PacerHarness p = new PacerHarness(config, snapshot, 1_000)) {
            p.runUntil(6_000);
            java.util.Set<String> after = new java.util.HashSet<>();
            p.sent.forEach(o -> after.add(o.send().deviceId));
            assertThat(after).hasSize(p.sent.size()).doesNotContainAnyElementsOf(before);
            assertThat(before.size() + after.size()).isEqualTo(3_500);
            assertThat(p.sentBetween("vivo", 1_000, 2_000)).isBetween(990L, 1_020L);
        }
    }

    private static PacingControl config(String vendor, double rate) {
        PacingControl c = new PacingControl();
        c.vendor = vendor;
        c.kind = PacingControl.CONFIG;
        c.maxRate = rate;
        c.weights = PacingConfig.defaultWeights();
        c.realtimeLevel = 3;
        c.fromRules = true;
        return c;
    }
}
