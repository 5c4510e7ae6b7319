package io.pushline.dispatch.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.PushRequest;
import io.pushline.schema.registry.DeviceInfo;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The operator against a plain model of docs/dispatch-gate.md over thousands of random pushes. The
 * model keeps every pass and answers each rule by scanning that history, as the contract words it,
 * so it shares no code or data structure with the gate.
 */
public class GateModelTest {
    static final String[] TYPES = {
        "news", "album_update", "live_start", "promo", "security_notice"
    };
    static final String[] ZONES = {null, "Asia/Shanghai", "America/New_York", "Europe/Berlin"};
    static final String OTHER_RULES =
            String.join(
                    "\n",
                    "quietHours: {start: \"08:00\", end: \"08:00\"}",
                    "minInterval: {period: 10m}",
                    "dailyCap: {limit: 3}",
                    "dedupe: {window: 2h}",
                    "msgTypes:",
                    "  default: {level: 2, cap: {limit: 2, period: 3h}}",
                    "  news: {}",
                    "whitelist: {devices: [d3]}");

    @ParameterizedTest
    @CsvSource({"1, contract", "2, contract", "3, other", "4, other"})
    void operatorDecidesLikeTheModel(long seed, String which) throws Exception {
        String yaml = which.equals("contract") ? GateOperatorTest.CONTRACT_RULES : OTHER_RULES;
        Rules rules = RulesParser.parse(yaml);
        Random rnd = new Random(seed);
        List<DeviceInfo> devices = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            devices.add(GateHarness.device("d" + i, "u" + i, ZONES[rnd.nextInt(ZONES.length)]));
        }
        Model model = new Model(rules);
        Map<String, Integer> seen = new HashMap<>();
        try (GateHarness gate = new GateHarness(yaml)) {
            long t = GateHarness.at("2026-03-01T00:00:00", "UTC");
            for (int n = 0; n < 4000; n++) {
                // Whole minutes, so that pushes land exactly on window and interval boundaries.
                t += rnd.nextInt(10) == 0 ? 0 : rnd.nextInt(40) * 60_000L;
                DeviceInfo d = devices.get(rnd.nextInt(devices.size()));
                if (rnd.nextInt(25) == 0) {
                    d.pushEnabled = !d.pushEnabled;
                }
                String type = TYPES[rnd.nextInt(TYPES.length)];
                Integer level = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(4) : null;
                String msgId = "m" + rnd.nextInt(n / 2 + 5);
                PushRequest p = GateHarness.push(t, msgId, type, level, "title " + rnd.nextInt(40));
                String expected = model.decide(d, p);
                String actual = gate.decide(d, p);
                seen.merge(expected, 1, Integer::sum);
                assertThat(actual)
                        .as(
                                "push %d (%s %s level %s) to %s at %s",
                                n, msgId, type, level, d.deviceId, Instant.ofEpochMilli(t))
                        .isEqualTo(expected);
            }
        }
        // The run must exercise the rules, not just pass everything.
        assertThat(seen.keySet())
                .contains("PASS", "push_disabled", "duplicate", "daily_cap", "type_cap");
    }

    /** docs/dispatch-gate.md, read literally. */
    public static final class Model {
        record Pass(
                long t,
                String msgId,
                String title,
                String body,
                String type,
                boolean counted,
                LocalDate day) {}

        final Rules rules;
        final Map<String, List<Pass>> passes = new HashMap<>();

        public Model(Rules rules) {
            this.rules = rules;
        }

        public String decide(DeviceInfo d, PushRequest p) {
            long t = p.ts;
            Rules.MsgType listed = rules.msgTypes.get(p.msgType);
            Rules.MsgType dflt = rules.msgTypes.get("default");
            int level =
                    p.level != null
                            ? p.level
                            : listed != null && listed.level() != null
                                    ? listed.level()
                                    : dflt != null && dflt.level() != null ? dflt.level() : 1;
            if (!d.pushEnabled) {
                return "push_disabled";
            }
            List<Pass> history = passes.computeIfAbsent(d.deviceId, k -> new ArrayList<>());
            if (rules.dedupeWindow != null) {
                for (Pass x : history) {
                    if (t - x.t < rules.dedupeWindow
                            && (x.msgId.equals(p.msgId)
                                    || (x.title.equals(p.title) && x.body.equals(p.body)))) {
                        return "duplicate";
                    }
                }
            }
            boolean whitelisted =
                    rules.whitelistMsgTypes.contains(p.msgType)
                            || rules.whitelistDevices.contains(d.deviceId);
            ZoneId zone = d.tz != null ? ZoneId.of(d.tz) : rules.timezone;
            LocalDate day = Instant.ofEpochMilli(t).atZone(zone).toLocalDate();
            if (!whitelisted) {
                if (rules.quietHours != null && exempt(level, rules.quietHours.exemptLevel())) {
                    LocalTime lt = Instant.ofEpochMilli(t).atZone(zone).toLocalTime();
                    LocalTime s = rules.quietHours.start();
                    LocalTime e = rules.quietHours.end();
                    boolean in =
                            s.isBefore(e)
                                    ? !lt.isBefore(s) && lt.isBefore(e)
                                    : s.isAfter(e) && (!lt.isBefore(s) || lt.isBefore(e));
                    if (in) {
                        return "quiet_hours";
                    }
                }
                if (rules.minInterval != null && exempt(level, rules.minInterval.exemptLevel())) {
                    Long last = null;
                    for (Pass x : history) {
                        if (x.counted) {
                            last = x.t;
                        }
                    }
                    if (last != null && t - last < rules.minInterval.period()) {
                        return "min_interval";
                    }
                }
                Rules.Cap cap = listed != null ? listed.cap() : dflt != null ? dflt.cap() : null;
                if (cap != null) {
                    Long start = null;
                    int count = 0;
                    for (Pass x : history) {
                        if (x.counted && x.type.equals(p.msgType)) {
                            if (start == null || x.t >= start + cap.period()) {
                                start = x.t;
                                count = 1;
                            } else {
                                count++;
                            }
                        }
                    }
                    if (start != null && t < start + cap.period() && count >= cap.limit()) {
                        return "type_cap";
                    }
                }
                if (rules.dailyCap != null && exempt(level, rules.dailyCap.exemptLevel())) {
                    long today =
                            history.stream().filter(x -> x.counted && x.day.equals(day)).count();
                    if (today >= rules.dailyCap.limit()) {
                        return "daily_cap";
                    }
                }
            }
            history.add(new Pass(t, p.msgId, p.title, p.body, p.msgType, !whitelisted, day));
            return "PASS";
        }

        /** True when the filter applies: no exempt level, or the level is below it. */
        static boolean exempt(int level, Integer exemptLevel) {
            return exemptLevel == null || level < exemptLevel;
        }
    }
}
