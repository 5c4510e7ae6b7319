package io.pushline.cli;

import io.pushline.schema.DeviceEvent;
import io.pushline.schema.Fallback;
import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.Vendor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The demo's input, deterministic by seed: device binds over vendors, zones and uids, some churn
 * (switch-offs, unbinds, moves), push requests to uids and devices, a few malformed records. Also
 * computes what the registry part of the dispatch job must answer (devices resolved, switched off,
 * missing), from a plain in-memory model, so the demo can check the job's output.
 */
final class DemoData {
    /** Vendor mix, roughly as in a Chinese consumer app's install base. */
    private static final Object[][] VENDOR_WEIGHTS = {
        {Vendor.APNS, 25}, {Vendor.HUAWEI, 20}, {Vendor.FCM, 10}, {Vendor.XIAOMI, 14},
        {Vendor.OPPO, 10}, {Vendor.VIVO, 9}, {Vendor.HONOR, 7}, {Vendor.LONGCONN, 5}
    };

    private static final String[] ZONES = {
        "Asia/Shanghai", "Asia/Shanghai", "Asia/Shanghai", "Asia/Tokyo", "Europe/Berlin", null
    };

    /** The campaigns' expression, over the package files below. */
    static final String CAMPAIGN = "sports AND region/beijing AND NOT churned";

    /** A campaign with a typo: sends nothing, one dead letter. */
    static final String BAD_CAMPAIGN = "sports AND region/beijng";

    final List<String[]> deviceEvents = new ArrayList<>(); // key, value
    final List<String[]> requests = new ArrayList<>();

    /** User-package files: segment name to its uids (built into the store before dispatch). */
    final Map<String, List<String>> packages = new TreeMap<>();

    /** The inboxes the requests with {@code inbox: true} fill: uid → ts → msgId. */
    final Map<String, TreeMap<Long, String>> inbox = new TreeMap<>();

    long inboxRequests;
    long broadcastMembers;
    long inboxBroadcasts;

    long campaigns;

    /**
     * What the registry alone decides: {@code no_device}, {@code push_disabled}, and the number of
     * (request, device) pairs that reach the gate's rules ({@code gated}).
     */
    final Map<String, Long> expectedByRegistry = new TreeMap<>();

    long expectedDeadLetters;

    /** Every device token the demo writes: none may show in a dead letter or a log line. */
    final Set<String> tokens = new HashSet<>();

    long expectedRegistryRows;

    private final Map<String, DeviceEvent> bound = new HashMap<>();
    private final Map<String, Set<String>> devicesOfUid = new HashMap<>();

    static DemoData generate(int devices, int requestCount, long seed, long baseTs) {
        DemoData d = new DemoData();
        d.build(devices, requestCount, new Random(seed), baseTs);
        return d;
    }

    /** Uids {@code u-0000000} up to this (exclusive) have or had devices. */
    int uidCount;

    private static final String[] FALLBACKS = {"huawei", "xiaomi", "fcm", "oppo"};

    private void build(int devices, int requestCount, Random rnd, long ts) {
        int uids = Math.max(1, devices * 10 / 13);
        uidCount = uids;
        for (int i = 0; i < devices; i++) {
            String device = String.format("dev-%07d", i);
            String uid = String.format("u-%07d", (long) i * uids / devices);
            DeviceEvent e =
                    DeviceEvent.bind(
                            ts + i / 10,
                            device,
                            uid,
                            vendor(rnd).wireName(),
                            Long.toHexString(rnd.nextLong()),
                            ZONES[rnd.nextInt(ZONES.length)]);
            if (rnd.nextInt(100) < 4) {
                e.pushEnabled = false;
            }
            if (Vendor.LONGCONN.wireName().equals(e.vendor) && i % 10 < 7) {
                // most long-connection devices also have a vendor channel to fall back to
                e.fallback = Fallback.of(FALLBACKS[i % FALLBACKS.length], "fb-" + e.token);
            }
            event(e);
        }
        ts += devices / 10 + 1000;
        for (int i = 0; i < devices / 50; i++) {
            String device = String.format("dev-%07d", rnd.nextInt(devices));
            switch (rnd.nextInt(3)) {
                case 0:
                    event(DeviceEvent.switchTo(ts, device, false));
                    break;
                case 1:
                    event(DeviceEvent.unbind(ts, device));
                    break;
                default:
                    event(
                            DeviceEvent.bind(
                                    ts,
                                    device,
                                    String.format("u-%07d", rnd.nextInt(uids)),
                                    vendor(rnd).wireName(),
                                    Long.toHexString(rnd.nextLong()),
                                    null));
            }
            ts += 1;
        }
        deadLetter(deviceEvents, "dev-bad-1", "{\"ts\": 1, \"type\": \"bind\", \"deviceId\": ");
        deadLetter(deviceEvents, "dev-bad-2", "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"x\"}");
        // a bind the registry refuses (unknown zone), with a token the dead letter must not show
        DeviceEvent mars =
                DeviceEvent.bind(
                        ts,
                        "dev-bad-3",
                        "u-bad-3",
                        "fcm",
                        Long.toHexString(rnd.nextLong()),
                        "Mars/Base");
        tokens.add(mars.token);
        deadLetter(deviceEvents, "dev-bad-3", Json.write(mars));
        expectedRegistryRows = bound.size();
        List<String> sports = new ArrayList<>();
        List<String> beijing = new ArrayList<>();
        List<String> churned = new ArrayList<>();
        for (int u = 0; u < uids; u++) {
            String uid = String.format("u-%07d", u);
            if (u % 3 == 0) {
                sports.add(uid);
            }
            if (u % 4 == 1 || u % 4 == 0) {
                beijing.add(uid);
            }
            if (u % 10 == 0) {
                churned.add(uid);
            }
        }
        packages.put("sports", sports);
        packages.put("region/beijing", beijing);
        packages.put("churned", churned);

        ts += 1000;
        String[] types = {"news", "live_start", "album_update", "security_notice"};
        for (int r = 0; r < requestCount; r++) {
            PushRequest p = new PushRequest();
            // Spread over a day, so quiet hours, intervals and caps all have their say.
            p.ts = ts + r * (86_400_000L / requestCount);
            p.msgId = String.format("msg-%06d", r);
            p.msgType = types[rnd.nextInt(types.length)];
            p.title = "Title " + r;
            p.body = "Body of message " + r;
            int kind = rnd.nextInt(100);
            if (r == requestCount / 4 || r == requestCount / 2 || r == requestCount * 3 / 4) {
                p.msgType = "promo";
                p.target = Target.ofAudience(CAMPAIGN);
            } else if (r == requestCount / 3) {
                p.target = Target.ofAudience(BAD_CAMPAIGN);
            } else if (kind < 92) {
                List<String> targets = new ArrayList<>();
                int k = 1 + rnd.nextInt(200);
                for (int j = 0; j < k; j++) {
                    targets.add(
                            rnd.nextInt(100) < 2
                                    ? "u-missing-" + rnd.nextInt(1000)
                                    : String.format("u-%07d", rnd.nextInt(uids)));
                }
                p.target = Target.ofUids(targets);
            } else {
                List<String> targets = new ArrayList<>();
                int k = 1 + rnd.nextInt(50);
                for (int j = 0; j < k; j++) {
                    targets.add(
                            rnd.nextInt(100) < 5
                                    ? "dev-missing-" + rnd.nextInt(1000)
                                    : String.format("dev-%07d", rnd.nextInt(devices)));
                }
                p.target = Target.ofDevices(targets);
            }
            // a fifth of the requests and the first campaign also go to the users' inboxes
            if ((r % 5 == 0 || r == requestCount / 4) && r != requestCount / 3) {
                p.inbox = true;
            }
            request(p);
        }
        deadLetter(requests, "msg-bad-1", "not json at all");
        deadLetter(requests, "msg-bad-2", "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\"}");
        deadLetter(requests, "msg-bad-3", "{\"ts\":1,\"type\":\"alarm\"}");
    }

    private Vendor vendor(Random rnd) {
        int total = 0;
        for (Object[] vw : VENDOR_WEIGHTS) {
            total += (Integer) vw[1];
        }
        int pick = rnd.nextInt(total);
        for (Object[] vw : VENDOR_WEIGHTS) {
            pick -= (Integer) vw[1];
            if (pick < 0) {
                return (Vendor) vw[0];
            }
        }
        throw new AssertionError();
    }

    private void event(DeviceEvent e) {
        deviceEvents.add(new String[] {e.deviceId, Json.write(e)});
        if (e.token != null) {
            tokens.add(e.token);
        }
        if (e.fallback != null) {
            tokens.add(e.fallback.token);
        }
        DeviceEvent before = bound.get(e.deviceId);
        switch (e.type) {
            case DeviceEvent.BIND:
                if (before != null) {
                    devicesOfUid.get(before.uid).remove(e.deviceId);
                }
                bound.put(e.deviceId, e);
                devicesOfUid.computeIfAbsent(e.uid, u -> new LinkedHashSet<>()).add(e.deviceId);
                break;
            case DeviceEvent.UNBIND:
                if (before != null) {
                    devicesOfUid.get(before.uid).remove(e.deviceId);
                    bound.remove(e.deviceId);
                }
                break;
            default:
                if (before != null) {
                    before.pushEnabled = e.enabled;
                }
        }
    }

    private void request(PushRequest p) {
        requests.add(new String[] {p.msgId, Json.write(p)});
        if (p.toInbox()) {
            inboxRequests++;
            Collection<String> to;
            if (p.target.uids != null) {
                to = p.target.uids;
            } else if (p.target.devices != null) {
                to = new ArrayList<>();
                for (String device : p.target.devices) {
                    DeviceEvent b = bound.get(device);
                    if (b != null) {
                        to.add(b.uid); // bound at the request's time: the events came first
                    }
                }
            } else {
                to = campaignUids();
                broadcastMembers = to.size();
                inboxBroadcasts++;
            }
            for (String uid : to) {
                inbox.computeIfAbsent(uid, u -> new TreeMap<>()).put(p.ts, p.msgId);
            }
        }
        if (p.target.audience != null && p.target.audience.equals(BAD_CAMPAIGN)) {
            expectedDeadLetters++;
            return;
        }
        if (p.target.uids != null || p.target.audience != null) {
            if (p.target.audience != null) {
                campaigns++;
            }
            for (String uid :
                    p.target.uids != null ? new LinkedHashSet<>(p.target.uids) : campaignUids()) {
                Set<String> devs = devicesOfUid.getOrDefault(uid, Set.of());
                if (devs.isEmpty()) {
                    count(expectedByRegistry, "no_device");
                }
                for (String device : devs) {
                    decide(bound.get(device));
                }
            }
        } else {
            for (String device : new LinkedHashSet<>(p.target.devices)) {
                DeviceEvent b = bound.get(device);
                if (b == null) {
                    count(expectedByRegistry, "no_device");
                } else {
                    decide(b);
                }
            }
        }
    }

    /**
     * Counts what a push to {@code uids} decides at the end of the device events (a reminder firing
     * after them, whitelisted by the rules): per device passed or push_disabled, no_device per uid
     * without one.
     */
    void expectPushTo(Collection<String> uids) {
        for (String uid : uids) {
            Set<String> devs = devicesOfUid.getOrDefault(uid, Set.of());
            if (devs.isEmpty()) {
                count(expectedByRegistry, "no_device");
            }
            for (String device : devs) {
                decide(bound.get(device));
            }
        }
    }

    /** What the campaign expression selects, computed plainly from the package files. */
    private Set<String> campaignUids() {
        Set<String> out = new LinkedHashSet<>(packages.get("sports"));
        out.retainAll(new HashSet<>(packages.get("region/beijing")));
        out.removeAll(new HashSet<>(packages.get("churned")));
        return out;
    }

    private void decide(DeviceEvent device) {
        if (device.pushEnabled != null && !device.pushEnabled) {
            count(expectedByRegistry, "push_disabled");
        } else {
            count(expectedByRegistry, "gated");
        }
    }

    private void deadLetter(List<String[]> topic, String key, String raw) {
        topic.add(new String[] {key, raw});
        expectedDeadLetters++;
    }

    /**
     * How many of {@code tokens} (hex, as the demo makes them) show in {@code text}: each run of
     * hex digits is looked up, so a large log is read once.
     */
    static int leakedTokens(CharSequence text, Set<String> tokens) {
        Set<String> found = new HashSet<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean hex = i < text.length() && Character.digit(text.charAt(i), 16) >= 0;
            if (hex && start < 0) {
                start = i;
            } else if (!hex && start >= 0) {
                String run =
                        text.subSequence(start, i).toString().toLowerCase(java.util.Locale.ROOT);
                for (int from = 0; from + 8 <= run.length() && from < 16; from++) {
                    for (int to = Math.min(run.length(), from + 16); to >= from + 8; to--) {
                        String candidate = run.substring(from, to);
                        if (tokens.contains(candidate)) {
                            found.add(candidate);
                        }
                    }
                }
                start = -1;
            }
        }
        return found.size();
    }

    private static void count(Map<String, Long> m, String k) {
        m.merge(k, 1L, Long::sum);
    }
}
