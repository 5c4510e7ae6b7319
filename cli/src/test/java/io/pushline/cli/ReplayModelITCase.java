package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.dispatch.gate.GateModelTest;
import io.pushline.dispatch.gate.GateOperatorTest;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.testkit.Clusters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pushline replay} on a random trace (binds, moves, unbinds, switches, pushes to uids and
 * devices with repeats and unknown ids, equal timestamps, lines out of time order, bad lines)
 * against the contract's model: registry semantics here, gate rules from {@link GateModelTest}.
 */
class ReplayModelITCase {
    // The jobs run on one MiniCluster for the whole test JVM, as the other ITCases' do; the CLI
    // itself starts a local cluster per job, which is not what these tests are about.
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final String[] VENDORS = {"apns", "fcm", "huawei", "xiaomi", "longconn"};
    static final String[] ZONES = {null, "Asia/Shanghai", "Europe/Berlin"};
    static final String[] TYPES = {
        "news", "album_update", "live_start", "promo", "security_notice"
    };

    @TempDir Path dir;

    @Test
    void replayDecidesLikeTheModel() throws Exception {
        Random rnd = new Random(7);
        List<Map<String, Object>> events = new ArrayList<>();
        long t = 1_767_225_600_000L;
        for (int n = 0; n < 2500; n++) {
            t += rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(30) * 60_000L;
            events.add(randomEvent(rnd, t, n));
        }
        // Lines are written out of time order: replay must sort by ts, then line.
        List<String> lines = new ArrayList<>();
        for (Map<String, Object> e : events) {
            lines.add(Json.write(e));
        }
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            if (rnd.nextInt(3) == 0) {
                Collections.swap(lines, i, i + 1);
            }
        }
        lines.add(500, "{\"ts\": 1, \"type\": \"push\"");
        lines.add(900, "{\"ts\":5,\"type\":\"teleport\",\"deviceId\":\"d1\"}");
        Path trace = dir.resolve("trace.jsonl");
        Path rules = dir.resolve("rules.yaml");
        Path out = dir.resolve("decisions.jsonl");
        Files.write(trace, lines, StandardCharsets.UTF_8);
        Files.writeString(rules, GateOperatorTest.CONTRACT_RULES);

        assertThat(
                        Main.run(
                                new String[] {
                                    "replay",
                                    "--rules",
                                    rules.toString(),
                                    "--trace",
                                    trace.toString(),
                                    "--out",
                                    out.toString()
                                }))
                .isZero();

        List<String> expected = model(lines);
        List<String> actual = Files.readAllLines(out, StandardCharsets.UTF_8);
        Collections.sort(expected);
        List<String> sortedActual = new ArrayList<>(actual);
        Collections.sort(sortedActual);
        assertThat(sortedActual).hasSize(expected.size());
        assertThat(sortedActual).containsExactlyElementsOf(expected);
        assertThat(new TreeSet<>(expected).stream().map(s -> s.replaceAll(".*\"reason\":", "")))
                .contains("null}", "\"no_device\"}", "\"push_disabled\"}", "\"duplicate\"}");
        List<String> rejected = Files.readAllLines(Path.of(out + ".rejected"));
        assertThat(rejected).hasSize(2);
        assertThat(rejected.get(0)).contains("\"line\":501");
        assertThat(rejected.get(1)).contains("\"line\":901").contains("unknown type 'teleport'");
    }

    @Test
    void audienceTargetsAreEvaluatedOverTheSegmentsFolder() throws Exception {
        Path segments = Files.createDirectories(dir.resolve("segments"));
        Files.writeString(segments.resolve("sports.txt"), "u1\nu2\n");
        Files.writeString(segments.resolve("churned.txt"), "u2\n");
        Files.writeString(segments.resolve("vip.txt"), "u9\n");
        String bind =
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"%s\",\"uid\":\"%s\",\"vendor\":\"fcm\",\"token\":\"t\"}";
        String push =
                "{\"ts\":%d,\"type\":\"push\",\"msgId\":\"%s\",\"msgType\":\"news\",\"title\":\"%s\",\"body\":\"b\",\"target\":{\"audience\":\"%s\"}}";
        Path trace = dir.resolve("audience.jsonl");
        Files.write(
                trace,
                List.of(
                        String.format(bind, "d1", "u1"),
                        String.format(bind, "d2", "u2"),
                        String.format(push, 2, "m1", "a", "sports AND NOT churned"),
                        String.format(push, 3, "m2", "b", "sports OR nobdy"),
                        String.format(push, 4, "m3", "c", "vip OR (churned AND NOT sports)")));
        Path out = dir.resolve("audience-out.jsonl");
        assertThat(
                        Main.run(
                                new String[] {
                                    "replay",
                                    "--trace",
                                    trace.toString(),
                                    "--segments",
                                    segments.toString(),
                                    "--out",
                                    out.toString()
                                }))
                .isZero();
        assertThat(Files.readAllLines(out))
                .containsExactly(
                        line("m1", "u1", "d1", "fcm", null),
                        line("m3", "u9", null, null, "no_device"));
        assertThat(Files.readAllLines(Path.of(out + ".rejected")))
                .singleElement()
                .asString()
                .contains("\"line\":4")
                .contains("audience expression rejected: column 11: unknown segment 'nobdy'");
    }

    private static Map<String, Object> randomEvent(Random rnd, long t, int n) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("ts", t);
        int kind = rnd.nextInt(20);
        String device = "d" + rnd.nextInt(30);
        if (kind < 3) {
            e.put("type", "bind");
            e.put("deviceId", device);
            e.put("uid", "u" + rnd.nextInt(20));
            e.put("vendor", VENDORS[rnd.nextInt(VENDORS.length)]);
            e.put("token", "tok" + n);
            String zone = ZONES[rnd.nextInt(ZONES.length)];
            if (zone != null) {
                e.put("tz", zone);
            }
            if (rnd.nextInt(5) == 0) {
                e.put("pushEnabled", false);
            }
        } else if (kind < 4) {
            e.put("type", "unbind");
            e.put("deviceId", device);
        } else if (kind < 5) {
            e.put("type", "switch");
            e.put("deviceId", device);
            e.put("enabled", rnd.nextBoolean());
        } else {
            e.put("type", "push");
            e.put("msgId", "m" + rnd.nextInt(n / 3 + 5));
            e.put("msgType", TYPES[rnd.nextInt(TYPES.length)]);
            if (rnd.nextInt(6) == 0) {
                e.put("level", 1 + rnd.nextInt(4));
            }
            e.put("title", "title " + rnd.nextInt(30));
            e.put("body", "body");
            List<String> ids = new ArrayList<>();
            boolean byUid = rnd.nextInt(3) > 0;
            for (int i = rnd.nextInt(4); i >= 0; i--) {
                ids.add(byUid ? "u" + rnd.nextInt(24) : "d" + rnd.nextInt(34));
            }
            e.put("target", Map.of(byUid ? "uids" : "devices", ids));
        }
        return e;
    }

    /** The contract: events in (ts, line) order; registry semantics; the gate's model. */
    @SuppressWarnings("unchecked")
    private static List<String> model(List<String> lines) throws Exception {
        List<Object[]> ordered = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Map<String, Object> e;
            try {
                e = Json.MAPPER.readValue(lines.get(i), Map.class);
            } catch (Exception bad) {
                continue;
            }
            if (List.of("bind", "unbind", "switch", "push").contains(e.get("type"))) {
                ordered.add(new Object[] {((Number) e.get("ts")).longValue(), i, e});
            }
        }
        ordered.sort(
                (a, b) ->
                        a[0].equals(b[0])
                                ? Integer.compare((int) a[1], (int) b[1])
                                : Long.compare((long) a[0], (long) b[0]));
        GateModelTest.Model gate =
                new GateModelTest.Model(RulesParser.parse(GateOperatorTest.CONTRACT_RULES));
        Map<String, DeviceInfo> bound = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (Object[] o : ordered) {
            Map<String, Object> e = (Map<String, Object>) o[2];
            String device = (String) e.get("deviceId");
            switch ((String) e.get("type")) {
                case "bind":
                    DeviceInfo d = new DeviceInfo();
                    d.deviceId = device;
                    d.uid = (String) e.get("uid");
                    d.vendor = (String) e.get("vendor");
                    d.tz = (String) e.get("tz");
                    d.pushEnabled = !Boolean.FALSE.equals(e.get("pushEnabled"));
                    bound.put(device, d);
                    break;
                case "unbind":
                    bound.remove(device);
                    break;
                case "switch":
                    if (bound.containsKey(device)) {
                        bound.get(device).pushEnabled = (Boolean) e.get("enabled");
                    }
                    break;
                default:
                    PushRequest p = new PushRequest();
                    p.ts = (long) o[0];
                    p.msgId = (String) e.get("msgId");
                    p.msgType = (String) e.get("msgType");
                    p.level = (Integer) e.get("level");
                    p.title = (String) e.get("title");
                    p.body = (String) e.get("body");
                    Map<String, List<String>> target = (Map<String, List<String>>) e.get("target");
                    if (target.containsKey("uids")) {
                        for (String uid : new LinkedHashSet<>(target.get("uids"))) {
                            List<DeviceInfo> devs = new ArrayList<>();
                            for (DeviceInfo x : bound.values()) {
                                if (x.uid.equals(uid)) {
                                    devs.add(x);
                                }
                            }
                            if (devs.isEmpty()) {
                                out.add(line(p.msgId, uid, null, null, "no_device"));
                            }
                            for (DeviceInfo x : devs) {
                                out.add(decided(gate, x, p));
                            }
                        }
                    } else {
                        Set<String> ids = new LinkedHashSet<>(target.get("devices"));
                        for (String id : ids) {
                            DeviceInfo x = bound.get(id);
                            out.add(
                                    x == null
                                            ? line(p.msgId, null, id, null, "no_device")
                                            : decided(gate, x, p));
                        }
                    }
            }
        }
        return out;
    }

    private static String decided(GateModelTest.Model gate, DeviceInfo d, PushRequest p) {
        String r = gate.decide(d, p);
        return r.equals("PASS")
                ? line(p.msgId, d.uid, d.deviceId, d.vendor, null)
                : line(p.msgId, d.uid, d.deviceId, null, r);
    }

    private static String line(
            String msgId, String uid, String device, String vendor, String reason) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("msgId", msgId);
        m.put("uid", uid);
        m.put("deviceId", device);
        m.put("vendor", vendor);
        m.put("decision", reason == null ? "PASS" : "DROP");
        m.put("reason", reason);
        return Json.write(m);
    }
}
