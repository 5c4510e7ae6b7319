package io.pushline.dispatch.upgrade;

import io.pushline.dispatch.gate.ExampleRules;
import io.pushline.schema.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The input of the upgrade test, in the trace format, split at {@link #CUT}: part A is what the job
 * of the previous version saw before its savepoint, part B what the upgraded job sees after the
 * restore. Every line has its own time, so file order and time order agree.
 *
 * <p>Besides a random population, five scripted devices whose part-B pushes are decided by what
 * part A left in the gate: a full daily cap, a recent pass (min interval), an open album_update
 * window (type cap), a remembered copy (duplicate), and a push that was still waiting for the
 * watermark when the savepoint was taken.
 */
final class UpgradeTrace {
    static final long DAY = Instant.parse("2026-03-02T00:00:00Z").toEpochMilli();
    static final long MIN = 60_000L;
    static final long HOUR = 60 * MIN;

    /** Part A ends with the waiting push at this time; part B starts after it. */
    static final long CUT = DAY + 13 * HOUR + 45 * MIN;

    /** The contract's example rules, whitelisting one of the random devices. */
    static final String RULES = ExampleRules.YAML.replace("d-000042", "r-7");

    /** The scripted pushes of part B and the decision each must get from the restored counters. */
    static final Map<String, String> SCRIPTED =
            Map.of(
                    "s-cap-b", "s-cap DROP daily_cap",
                    "s-interval-b", "s-interval DROP min_interval",
                    "s-window-b", "s-window DROP type_cap",
                    "s-dup-b", "s-dup DROP duplicate",
                    "s-wait", "s-wait PASS");

    private static final String[] ZONES = {
        "UTC", "Asia/Shanghai", "America/New_York", "Europe/Berlin"
    };
    private static final String[] TYPES = {
        "news", "album_update", "live_start", "promo", "security_notice"
    };
    private static final String[] VENDORS = {"apns", "fcm", "huawei", "xiaomi", "oppo", "vivo"};
    private static final String[] TITLES = {"Live now", "New chapter", "Tonight", "今晚 直播"};
    private static final String[] BODIES = {"Tap to watch", "Read it", "Don't miss it"};
    private static final int DEVICES = 60;
    private static final int UIDS = 45;

    final List<String> partA = new ArrayList<>();
    final List<String> partB = new ArrayList<>();

    /** msgIds of part A's pushes, the waiting one excluded: decided before the savepoint. */
    final List<String> decidedInA = new ArrayList<>();

    private final Random random = new Random(20261124L);
    private long last = Long.MIN_VALUE;

    UpgradeTrace() {
        long t = DAY - HOUR;
        for (int d = 0; d < DEVICES; d++) {
            Map<String, Object> bind = line(t++, "bind");
            bind.put("deviceId", "r-" + d);
            bind.put("uid", "ru-" + (d % UIDS));
            bind.put("vendor", VENDORS[d % VENDORS.length]);
            bind.put("token", "tok-r-" + d);
            bind.put("tz", ZONES[random.nextInt(ZONES.length)]);
            if (d % 11 == 5) {
                bind.put("pushEnabled", false);
            }
            partA.add(Json.write(bind));
        }
        for (String s : List.of("s-cap", "s-interval", "s-window", "s-dup", "s-wait")) {
            Map<String, Object> bind = line(t++, "bind");
            bind.put("deviceId", s);
            bind.put("uid", "u-" + s);
            bind.put("vendor", "fcm");
            bind.put("token", "tok-" + s);
            bind.put("tz", "UTC");
            partA.add(Json.write(bind));
        }
        // Part A: the random population from midnight to 13:30 UTC, the scripted passes between.
        List<Long> times = times(400, DAY, DAY + 13 * HOUR + 30 * MIN);
        Map<Long, String> scripted = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            scripted.put(DAY + 8 * HOUR + i * 40 * MIN + 7, "s-cap");
        }
        scripted.put(DAY + 12 * HOUR + 7, "s-dup");
        scripted.put(DAY + 13 * HOUR + 7, "s-window");
        scripted.put(DAY + 13 * HOUR + 40 * MIN + 7, "s-interval");
        int n = 0;
        for (long at : merged(times, scripted)) {
            String device = scripted.get(at);
            if (device == null) {
                partA.add(randomEvent(at, "a-" + n++));
            } else {
                String type = device.equals("s-window") ? "album_update" : "promo";
                String title = device.equals("s-dup") ? "Hello" : "For " + device + " " + at;
                partA.add(push(at, device + "-a" + at, type, title, "There", device));
            }
        }
        partA.add(push(CUT, "s-wait", "promo", "Waiting", "Across the upgrade", "s-wait"));

        // Part B: scripted first (their counters are from part A), then into the next local day.
        partB.add(push(CUT + 5 * MIN, "s-window-b", "album_update", "Album", "Two", "s-window"));
        partB.add(push(CUT + 20 * MIN, "s-interval-b", "promo", "Soon", "Again", "s-interval"));
        partB.add(push(CUT + 25 * MIN, "s-cap-b", "promo", "Sixth", "Today", "s-cap"));
        partB.add(push(CUT + 45 * MIN, "s-dup-b", "promo", "Hello", "There", "s-dup"));
        n = 0;
        for (long at : times(300, CUT + HOUR, DAY + 30 * HOUR)) {
            partB.add(randomEvent(at, "b-" + n++));
        }
    }

    /** The time of the last line of {@code lines}. */
    static long lastTime(List<String> lines) {
        String last = lines.get(lines.size() - 1);
        return ((Number) io.pushline.schema.Json.read(last, Map.class).get("ts")).longValue();
    }

    private static List<Long> merged(List<Long> times, Map<Long, String> scripted) {
        List<Long> all = new ArrayList<>(times);
        all.removeAll(scripted.keySet());
        all.addAll(scripted.keySet());
        all.sort(null);
        return all;
    }

    /**
     * {@code n} distinct times in [from, to), each a multiple of 10 ms (scripted ones end in 7).
     */
    private List<Long> times(int n, long from, long to) {
        java.util.TreeSet<Long> out = new java.util.TreeSet<>();
        while (out.size() < n) {
            out.add(from + (long) (random.nextDouble() * (to - from)) / 10 * 10);
        }
        return new ArrayList<>(out);
    }

    private String randomEvent(long at, String msgId) {
        int roll = random.nextInt(100);
        if (roll < 3) {
            Map<String, Object> sw = line(at, "switch");
            sw.put("deviceId", "r-" + random.nextInt(DEVICES));
            sw.put("enabled", random.nextBoolean());
            return Json.write(sw);
        }
        if (roll < 5) {
            // a device moves to another uid (its counters stay with the device)
            int d = random.nextInt(DEVICES);
            Map<String, Object> bind = line(at, "bind");
            bind.put("deviceId", "r-" + d);
            bind.put("uid", "ru-" + random.nextInt(UIDS));
            bind.put("vendor", VENDORS[d % VENDORS.length]);
            bind.put("token", "tok-r-" + d + "-" + at);
            bind.put("tz", ZONES[random.nextInt(ZONES.length)]);
            return Json.write(bind);
        }
        // a msgId seen before (in part B: one part A passed, remembered across the upgrade)
        String id =
                roll < 10 && !decidedInA.isEmpty()
                        ? decidedInA.get(random.nextInt(decidedInA.size()))
                        : msgId;
        Map<String, Object> p = line(at, "push");
        p.put("msgId", id);
        p.put("msgType", TYPES[random.nextInt(TYPES.length)]);
        if (random.nextInt(5) == 0) {
            p.put("level", 1 + random.nextInt(3));
        }
        p.put("title", TITLES[random.nextInt(TITLES.length)]);
        p.put("body", BODIES[random.nextInt(BODIES.length)]);
        List<String> targets = new ArrayList<>();
        boolean byDevice = random.nextInt(4) == 0;
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            targets.add(
                    byDevice ? "r-" + random.nextInt(DEVICES) : "ru-" + random.nextInt(UIDS + 3));
        }
        p.put("target", Map.of(byDevice ? "devices" : "uids", targets));
        if (msgId.startsWith("a-")) {
            decidedInA.add(id);
        }
        return Json.write(p);
    }

    private String push(
            long at, String msgId, String type, String title, String body, String device) {
        Map<String, Object> p = line(at, "push");
        p.put("msgId", msgId);
        p.put("msgType", type);
        p.put("title", title);
        p.put("body", body);
        p.put("target", Map.of("devices", List.of(device)));
        if (!msgId.equals("s-wait") && at < CUT) {
            decidedInA.add(msgId);
        }
        return Json.write(p);
    }

    private Map<String, Object> line(long ts, String type) {
        if (ts <= last) {
            throw new IllegalStateException("trace times must grow: " + ts + " after " + last);
        }
        last = ts;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", ts);
        m.put("type", type);
        return m;
    }
}
