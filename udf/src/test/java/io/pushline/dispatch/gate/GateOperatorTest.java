package io.pushline.dispatch.gate;

import static io.pushline.dispatch.gate.GateHarness.at;
import static io.pushline.dispatch.gate.GateHarness.device;
import static io.pushline.dispatch.gate.GateHarness.push;
import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.registry.DeviceInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.junit.jupiter.api.Test;

/** Every rule and edge of docs/dispatch-gate.md, through the operator. */
public class GateOperatorTest {
    static final String SH = "Asia/Shanghai";
    static final long MIN = 60_000L;
    static final long HOUR = 60 * MIN;

    public static final String CONTRACT_RULES = ExampleRules.YAML;

    @Test
    void noRulesPassEverythingButASwitchedOffDevice() throws Exception {
        try (GateHarness g = new GateHarness("{}")) {
            DeviceInfo d = device("d1", "u1", null);
            assertThat(g.decide(d, 1000, "m1", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, 1001, "m1", "news")).isEqualTo("PASS");
            d.pushEnabled = false;
            assertThat(g.decide(d, 1002, "m2", "news")).isEqualTo("push_disabled");
        }
    }

    @Test
    void quietHoursWrapMidnightInTheDevicesZone() throws Exception {
        try (GateHarness g = new GateHarness("quietHours: {start: \"23:00\", end: \"07:00\"}")) {
            DeviceInfo d = device("d1", "u1", SH);
            assertThat(g.decide(d, at("2026-03-01T22:59:59", SH), "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, at("2026-03-01T23:00:00", SH), "b", "t"))
                    .isEqualTo("quiet_hours");
            assertThat(g.decide(d, at("2026-03-02T03:00:00", SH), "c", "t"))
                    .isEqualTo("quiet_hours");
            assertThat(g.decide(d, at("2026-03-02T06:59:59", SH), "d", "t"))
                    .isEqualTo("quiet_hours");
            assertThat(g.decide(d, at("2026-03-02T07:00:00", SH), "e", "t")).isEqualTo("PASS");
        }
    }

    @Test
    void quietHoursUseRulesZoneWithoutDeviceZoneAndUtcWithoutEither() throws Exception {
        long utcMidnightish = at("2026-03-01T23:30:00", "UTC"); // 07:30 in Shanghai
        try (GateHarness g =
                new GateHarness(
                        "timezone: Asia/Shanghai\nquietHours: {start: \"23:00\", end: \"07:00\"}")) {
            assertThat(g.decide(device("d1", "u1", null), utcMidnightish, "a", "t"))
                    .isEqualTo("PASS");
            assertThat(g.decide(device("d2", "u1", "UTC"), utcMidnightish, "a", "t"))
                    .isEqualTo("quiet_hours");
        }
        try (GateHarness g = new GateHarness("quietHours: {start: \"23:00\", end: \"07:00\"}")) {
            assertThat(g.decide(device("d1", "u1", null), utcMidnightish, "a", "t"))
                    .isEqualTo("quiet_hours");
        }
    }

    @Test
    void equalStartAndEndIsAnEmptyWindowAndNonWrappingWindowsWork() throws Exception {
        try (GateHarness g = new GateHarness("quietHours: {start: \"12:00\", end: \"12:00\"}")) {
            assertThat(
                            g.decide(
                                    device("d1", "u", "UTC"),
                                    at("2026-03-01T12:00:00", "UTC"),
                                    "a",
                                    "t"))
                    .isEqualTo("PASS");
        }
        try (GateHarness g = new GateHarness("quietHours: {start: \"12:00\", end: \"14:00\"}")) {
            DeviceInfo d = device("d1", "u", "UTC");
            assertThat(g.decide(d, at("2026-03-01T11:59:00", "UTC"), "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, at("2026-03-01T12:00:00", "UTC"), "b", "t"))
                    .isEqualTo("quiet_hours");
            assertThat(g.decide(d, at("2026-03-01T14:00:00", "UTC"), "c", "t")).isEqualTo("PASS");
        }
    }

    @Test
    void exemptLevelsSkipQuietHoursIntervalAndDailyCapButNotTypeCaps() throws Exception {
        try (GateHarness g = new GateHarness(CONTRACT_RULES)) {
            DeviceInfo d = device("d1", "u1", SH);
            long night = at("2026-03-01T23:30:00", SH);
            // live_start is level 3 by its msgType: exempt from quiet hours and interval.
            assertThat(g.decide(d, night, "l1", "live_start")).isEqualTo("PASS");
            assertThat(g.decide(d, night + MIN, "l2", "live_start")).isEqualTo("PASS");
            // A request's own level overrides its msgType's.
            assertThat(g.decide(d, push(night + 2 * MIN, "n1", "news", 3, "n1"))).isEqualTo("PASS");
            assertThat(g.decide(d, push(night + 3 * MIN, "n2", "news", 3, "n2"))).isEqualTo("PASS");
            // news cap 2/h has no exempt level.
            assertThat(g.decide(d, push(night + 4 * MIN, "n3", "news", 3, "n3")))
                    .isEqualTo("type_cap");
            assertThat(g.decide(d, push(night + 5 * MIN, "x", "other", 2, "x")))
                    .isEqualTo("quiet_hours");
        }
    }

    @Test
    void minIntervalCountsFromTheLastCountedPass() throws Exception {
        try (GateHarness g = new GateHarness("minInterval: {period: 30m}")) {
            DeviceInfo d = device("d1", "u1", "UTC");
            assertThat(g.decide(d, 0, "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, 30 * MIN - 1, "b", "t")).isEqualTo("min_interval");
            assertThat(g.decide(d, 30 * MIN, "c", "t")).isEqualTo("PASS");
        }
    }

    @Test
    void typeCapWindowOpensAtAPassAndReopensAfterItsPeriod() throws Exception {
        try (GateHarness g = new GateHarness("msgTypes:\n  news: {cap: {limit: 2, period: 1h}}")) {
            DeviceInfo d = device("d1", "u1", "UTC");
            long t0 = 10 * HOUR;
            assertThat(g.decide(d, t0, "a", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, t0 + 10 * MIN, "b", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, t0 + HOUR - 1, "c", "news")).isEqualTo("type_cap");
            // A window is [start, start + period): at t0 + 1h a new one starts.
            assertThat(g.decide(d, t0 + HOUR, "d", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, t0 + HOUR + 1, "e", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, t0 + HOUR + 2, "f", "news")).isEqualTo("type_cap");
        }
    }

    @Test
    void unlistedMsgTypesShareDefaultsCapButEachHasItsOwnWindow() throws Exception {
        try (GateHarness g =
                new GateHarness(
                        "msgTypes:\n  default: {cap: {limit: 1, period: 1h}}\n  news: {level: 2}")) {
            DeviceInfo d = device("d1", "u1", "UTC");
            assertThat(g.decide(d, 0, "a", "promo")).isEqualTo("PASS");
            assertThat(g.decide(d, 1, "b", "coupon")).isEqualTo("PASS");
            assertThat(g.decide(d, 2, "c", "promo")).isEqualTo("type_cap");
            // news is listed without a cap: it has none, not default's.
            assertThat(g.decide(d, 3, "d", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, 4, "e", "news")).isEqualTo("PASS");
        }
    }

    @Test
    void dailyCapFollowsTheLocalCalendarDay() throws Exception {
        try (GateHarness g = new GateHarness("dailyCap: {limit: 2}")) {
            DeviceInfo d = device("d1", "u1", SH);
            assertThat(g.decide(d, at("2026-03-01T22:00:00", SH), "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, at("2026-03-01T23:00:00", SH), "b", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, at("2026-03-01T23:59:59", SH), "c", "t")).isEqualTo("daily_cap");
            // Midnight in Shanghai is 16:00 UTC: a new local day, counting from 1 again.
            assertThat(g.decide(d, at("2026-03-02T00:00:00", SH), "e", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, at("2026-03-02T00:00:01", SH), "f", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, at("2026-03-02T08:00:00", SH), "g", "t")).isEqualTo("daily_cap");
        }
    }

    @Test
    void dailyCapDayBoundaryIsTheDevicesNotUtc() throws Exception {
        try (GateHarness g = new GateHarness("dailyCap: {limit: 1}")) {
            DeviceInfo ny = device("d1", "u1", "America/New_York");
            // 2026-03-01 23:30 and 2026-03-02 00:30 UTC are the same New York day.
            assertThat(g.decide(ny, at("2026-03-01T23:30:00", "UTC"), "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(ny, at("2026-03-02T00:30:00", "UTC"), "b", "t"))
                    .isEqualTo("daily_cap");
        }
    }

    @Test
    void duplicatesByMsgIdOrByCopyWithinTheWindow() throws Exception {
        try (GateHarness g = new GateHarness("dedupe: {window: 24h}")) {
            DeviceInfo d = device("d1", "u1", "UTC");
            assertThat(g.decide(d, push(0, "m1", "news", null, "Hello"))).isEqualTo("PASS");
            assertThat(g.decide(d, push(HOUR, "m1", "news", null, "Other"))).isEqualTo("duplicate");
            assertThat(g.decide(d, push(2 * HOUR, "m2", "news", null, "Hello")))
                    .isEqualTo("duplicate");
            assertThat(g.decide(d, push(3 * HOUR, "m3", "news", null, "Fresh"))).isEqualTo("PASS");
            // t - pass time < window: at exactly 24 h the first pass no longer counts.
            assertThat(g.decide(d, push(24 * HOUR, "m1", "news", null, "Hello"))).isEqualTo("PASS");
            // Another device has its own memory.
            assertThat(
                            g.decide(
                                    device("d2", "u1", "UTC"),
                                    push(24 * HOUR, "m1", "news", null, "Hello")))
                    .isEqualTo("PASS");
        }
    }

    @Test
    void dropsAreNotRememberedForDedupe() throws Exception {
        try (GateHarness g = new GateHarness("dedupe: {window: 24h}\nminInterval: {period: 1h}")) {
            DeviceInfo d = device("d1", "u1", "UTC");
            assertThat(g.decide(d, 0, "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, MIN, "b", "t")).isEqualTo("min_interval");
            assertThat(g.decide(d, HOUR, "b", "t")).isEqualTo("PASS");
        }
    }

    @Test
    void whitelistPassesWithoutCountingButIsRememberedForDedupe() throws Exception {
        try (GateHarness g = new GateHarness(CONTRACT_RULES)) {
            DeviceInfo d = device("d1", "u1", SH);
            long night = at("2026-03-01T23:30:00", SH);
            assertThat(g.decide(d, night, "s1", "security_notice")).isEqualTo("PASS");
            assertThat(g.decide(d, night + 1, "s1", "security_notice")).isEqualTo("duplicate");
            long day = at("2026-03-02T09:00:00", SH);
            assertThat(g.decide(d, day, "a", "other")).isEqualTo("PASS");
            // Whitelisted passes do not move the last counted pass...
            assertThat(g.decide(d, day + MIN, "s2", "security_notice")).isEqualTo("PASS");
            assertThat(g.decide(d, day + 2 * MIN, "b", "other")).isEqualTo("min_interval");
            // ...and a whitelisted device skips quiet hours, intervals and caps.
            DeviceInfo vip = device("d-000042", "u2", SH);
            for (int i = 0; i < 8; i++) {
                assertThat(g.decide(vip, night + i, "v" + i, "album_update")).isEqualTo("PASS");
            }
        }
    }

    @Test
    void countersBelongToTheDeviceAcrossUnbindAndRebind() throws Exception {
        try (GateHarness g = new GateHarness("minInterval: {period: 30m}\ndedupe: {window: 1h}")) {
            assertThat(g.decide(device("d1", "u1", "UTC"), 0, "a", "t")).isEqualTo("PASS");
            // The registry moved d1 to u2; the gate's memory stays with d1.
            assertThat(g.decide(device("d1", "u2", "UTC"), MIN, "b", "t"))
                    .isEqualTo("min_interval");
            assertThat(g.decide(device("d1", "u2", "UTC"), 31 * MIN, "a", "t"))
                    .isEqualTo("duplicate");
        }
    }

    @Test
    void contractOrderDisabledBeforeDuplicateBeforeWhitelist() throws Exception {
        try (GateHarness g = new GateHarness(CONTRACT_RULES)) {
            DeviceInfo d = device("d-000042", "u1", SH);
            long day = at("2026-03-02T09:00:00", SH);
            assertThat(g.decide(d, day, "m1", "news")).isEqualTo("PASS");
            assertThat(g.decide(d, day + 1, "m1", "news")).isEqualTo("duplicate");
            d.pushEnabled = false;
            assertThat(g.decide(d, day + 2, "m1", "news")).isEqualTo("push_disabled");
        }
    }

    @Test
    void sendsCarryTheLevelTheGateUsed() throws Exception {
        try (GateHarness g = new GateHarness(CONTRACT_RULES)) {
            DeviceInfo d = device("d1", "u1", SH);
            long day = at("2026-03-02T09:00:00", SH);
            g.decide(d, day, "a", "news");
            g.decide(d, push(day + HOUR, "b", "other", 5, "b"));
            g.decide(d, day + 2 * HOUR, "c", "unlisted");
            assertThat(g.sends())
                    .extracting(s -> s.msgId + ":" + s.level)
                    .containsExactly("a:2", "b:5", "c:1");
        }
    }

    @Test
    void newRulesApplyFromTheNextDecision() throws Exception {
        try (GateHarness g = new GateHarness("minInterval: {period: 1h}")) {
            DeviceInfo d = device("d1", "u1", "UTC");
            assertThat(g.decide(d, 0, "a", "t")).isEqualTo("PASS");
            assertThat(g.decide(d, MIN, "b", "t")).isEqualTo("min_interval");
            g.newRules("{\"minInterval\": {\"period\": \"1m\"}}");
            assertThat(g.decide(d, 2 * MIN, "c", "t")).isEqualTo("PASS");
        }
    }

    @Test
    void oneCompactStateValuePerDevice() throws Exception {
        try (GateHarness g = new GateHarness(CONTRACT_RULES)) {
            long day = at("2026-03-02T09:00:00", SH);
            g.decide(device("d1", "u1", SH), day, "a", "news");
            g.decide(device("d1", "u1", SH), day + HOUR, "b", "album_update");
            g.decide(device("d2", "u1", SH), day, "a", "news");
            // One gate-device value per device; the event-time buffer is empty after the watermark.
            var backend = g.h.getOperator().getKeyedStateBackend();
            try (var keys = backend.getKeys("gate-device", VoidNamespace.INSTANCE)) {
                assertThat(keys).containsExactlyInAnyOrder("d1", "d2");
            }
            try (var keys = backend.getKeys("gate-queue-spill", VoidNamespace.INSTANCE)) {
                assertThat(keys).isEmpty();
            }
        }
    }

    @Test
    void pushesPastTheHeapLimitWaitInRocksDbAndSurviveARestore() throws Exception {
        String rules = "minInterval: {period: 10m}\ndedupe: {window: 1h}";
        OperatorSubtaskState snapshot;
        try (var h = GateHarness.harness(new GateOperator(rules, Duration.ofDays(8), 2))) {
            h.open();
            // arrival order is not time order; two fit on the heap, four spill; m5 has m2's copy
            long[] times = {5 * MIN, MIN, 12 * MIN, 3 * MIN, 20 * MIN, 30 * MIN};
            for (int i = 0; i < times.length; i++) {
                h.processElement1(
                        new StreamRecord<>(
                                DevicePush.of(
                                        push(
                                                times[i],
                                                "m" + i,
                                                "news",
                                                null,
                                                i == 5 ? "t2" : "t" + i),
                                        device("d1", "u1", "UTC")),
                                times[i]));
            }
            var backend = h.getOperator().getKeyedStateBackend();
            try (var keys = backend.getKeys("gate-queue-spill", VoidNamespace.INSTANCE)) {
                assertThat(keys).containsExactly("d1");
            }
            snapshot = h.snapshot(1, 0);
        }
        try (var h = GateHarness.harness(new GateOperator(rules, Duration.ofDays(8), 2))) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            h.processBothWatermarks(new Watermark(15 * MIN));
            // in time order: 1 PASS, 3 too soon, 5 too soon, 12 PASS; 20 still waits
            assertThat(h.extractOutputValues())
                    .extracting(d -> d.msgId + " " + (d.isPass() ? "PASS" : d.reason))
                    .containsExactly("m1 PASS", "m3 min_interval", "m0 min_interval", "m2 PASS");
            h.processBothWatermarks(new Watermark(Long.MAX_VALUE));
            assertThat(h.extractOutputValues())
                    .extracting(d -> d.msgId + " " + (d.isPass() ? "PASS" : d.reason))
                    .endsWith("m4 min_interval", "m5 duplicate");
            var backend = h.getOperator().getKeyedStateBackend();
            try (var keys = backend.getKeys("gate-queue-spill", VoidNamespace.INSTANCE)) {
                assertThat(keys).isEmpty();
            }
        }
    }

    @Test
    void aWatermarkThatReleasesManyPushesDecidesThemAsOneByOne() throws Exception {
        // Hundreds of pushes released by one watermark are decided in batches, some read back
        // from RocksDB: the decisions and their order are those of one push per watermark.
        java.util.Random random = new java.util.Random(11);
        List<PushRequest> pushes = new ArrayList<>();
        List<DeviceInfo> devices = new ArrayList<>();
        String[] types = {"news", "promo", "live_start", "security_notice"};
        for (int i = 0; i < 300; i++) {
            PushRequest p =
                    push(
                            i * 37 * MIN / 10 + random.nextInt((int) (3 * MIN / 10)),
                            "m" + random.nextInt(250),
                            types[random.nextInt(types.length)],
                            random.nextInt(6) == 0 ? 3 : null,
                            "t" + random.nextInt(40));
            p.seq = i;
            pushes.add(p);
            int dev = random.nextInt(7);
            devices.add(device("d" + dev, "u" + dev, dev % 2 == 0 ? SH : "Europe/Berlin"));
        }
        List<String> oneByOne = new ArrayList<>();
        try (GateHarness g = new GateHarness(CONTRACT_RULES)) {
            for (int i = 0; i < pushes.size(); i++) {
                oneByOne.add(
                        pushes.get(i).msgId + " " + g.decide(devices.get(i), copy(pushes.get(i))));
            }
        }
        List<Integer> arrival = new ArrayList<>();
        for (int i = 0; i < pushes.size(); i++) {
            arrival.add(i);
        }
        java.util.Collections.shuffle(arrival, random);
        try (var h =
                GateHarness.harness(new GateOperator(CONTRACT_RULES, Duration.ofDays(8), 50))) {
            h.open();
            for (int i : arrival) {
                PushRequest p = copy(pushes.get(i));
                p.seq = i + 1;
                h.processElement1(new StreamRecord<>(DevicePush.of(p, devices.get(i)), p.ts));
            }
            long half = pushes.get(149).ts;
            h.processBothWatermarks(new Watermark(half));
            assertThat(h.extractOutputValues()).hasSize(150);
            h.processBothWatermarks(new Watermark(Long.MAX_VALUE));
            assertThat(h.extractOutputValues())
                    .extracting(d -> d.msgId + " " + (d.isPass() ? "PASS" : d.reason))
                    .isEqualTo(oneByOne);
        }
        assertThat(oneByOne).anyMatch(d -> d.endsWith("PASS")).anyMatch(d -> !d.endsWith("PASS"));
    }

    private static PushRequest copy(PushRequest p) {
        PushRequest c = push(p.ts, p.msgId, p.msgType, p.level, p.title);
        c.seq = p.seq;
        return c;
    }

    @Test
    void aPushBehindTheWatermarkIsDecidedAtTheNextOne() throws Exception {
        try (var h = GateHarness.harness(new GateOperator("{}", Duration.ofDays(8)))) {
            h.open();
            h.processBothWatermarks(new Watermark(10 * MIN));
            h.processElement1(
                    new StreamRecord<>(
                            DevicePush.of(
                                    push(MIN, "late", "news", null, "t"),
                                    device("d1", "u1", "UTC")),
                            MIN));
            assertThat(h.extractOutputValues()).isEmpty();
            h.processBothWatermarks(new Watermark(10 * MIN + 1));
            assertThat(h.extractOutputValues()).extracting(d -> d.msgId).containsExactly("late");
        }
    }

    /** Free-text msgTypes and vendors once made a metric series each, without bound. */
    @Test
    void metricLabelsComeFromBoundedSets() {
        Rules rules = RulesParser.parse("{\"msgTypes\": {\"news\": {\"level\": 1}}}");
        assertThat(GateOperator.msgTypeLabel("news", rules)).isEqualTo("news");
        assertThat(GateOperator.msgTypeLabel("news-" + System.nanoTime(), rules))
                .isEqualTo("other");
        assertThat(GateOperator.msgTypeLabel(null, rules)).isEqualTo("other");
        assertThat(GateOperator.vendorLabel("huawei")).isEqualTo("huawei");
        assertThat(GateOperator.vendorLabel("nokia")).isEqualTo("other");
    }

    /** What deciding one push throws makes that push a dead letter; the next is decided. */
    @Test
    void aPushThatMakesTheGateThrowIsADeadLetterAndTheNextIsDecided() throws Exception {
        try (var h = GateHarness.harness(new GateOperator(ExampleRules.YAML, Duration.ofDays(8)))) {
            h.open();
            // the parser refuses unknown zones; the gate must survive one anyway
            DeviceInfo mars = device("d1", "u1", "Mars/Base");
            h.processElement1(
                    new StreamRecord<>(
                            DevicePush.of(push(MIN, "m1", "news", null, "t"), mars), MIN));
            h.processElement1(
                    new StreamRecord<>(
                            DevicePush.of(
                                    push(MIN + 1, "m2", "news", null, "t"),
                                    device("d2", "u2", "UTC")),
                            MIN + 1));
            h.processBothWatermarks(new Watermark(2 * MIN));
            assertThat(h.extractOutputValues()).extracting(d -> d.msgId).containsExactly("m2");
            var dead = h.getSideOutput(DispatchTags.DEAD_LETTERS);
            assertThat(dead).hasSize(1);
            DeadLetter d = dead.peek().getValue();
            assertThat(d.source).isEqualTo("gate");
            assertThat(d.reason).startsWith("gate failed on this record: java.time.");
            assertThat(d.position).isEqualTo("msgId m1, deviceId d1");
            assertThat(Json.write(d)).doesNotContain("tok-d1").doesNotContain("body of");
        }
    }
}
