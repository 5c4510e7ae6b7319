package io.pushline.longconn;

import io.pushline.schema.longconn.AppVersion;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A plain reading of the ack-and-retry contract, for tests: one global queue of pending retries
 * ordered by due time, msgId and deviceId, drained before each event of a later time. Nothing in it
 * is shared with {@link AckTracker}.
 */
final class AckModel {
    private record Pending(long due, String msgId, String deviceId) {}

    private static final class Pair {
        long sentTs;
        int retries;
        long last;
        long delay;
    }

    private static final class Device {
        boolean offline;
        String version;
        Long learned;
    }

    private final AckRules rules;
    private final TreeSet<Pending> queue =
            new TreeSet<>(
                    Comparator.comparingLong(Pending::due)
                            .thenComparing(Pending::msgId)
                            .thenComparing(Pending::deviceId));
    private final Map<List<String>, Pair> pairs = new HashMap<>();
    private final Map<String, Device> devices = new HashMap<>();
    private final List<LongconnAction> out = new ArrayList<>();

    AckModel(AckRules rules) {
        this.rules = rules;
    }

    /** The actions for {@code events}, given sorted by time and then trace order. */
    static List<LongconnAction> run(AckRules rules, List<LongconnEvent> events) {
        AckModel m = new AckModel(rules);
        for (LongconnEvent e : events) {
            m.drainBefore(e.ts);
            m.event(e);
        }
        m.drainBefore(Long.MAX_VALUE);
        while (!m.queue.isEmpty()) {
            m.due(m.queue.pollFirst());
        }
        return m.out;
    }

    private void drainBefore(long ts) {
        while (!queue.isEmpty() && queue.first().due() < ts) {
            due(queue.pollFirst());
        }
    }

    private Device device(String id) {
        return devices.computeIfAbsent(id, k -> new Device());
    }

    private void event(LongconnEvent e) {
        Device d = device(e.deviceId);
        List<String> key = List.of(e.msgId == null ? "" : e.msgId, e.deviceId);
        switch (e.type) {
            case "presence" -> {
                d.offline = !e.online;
                if (e.appVersion != null) {
                    d.version = e.appVersion;
                }
            }
            case "sent" -> {
                if (pairs.containsKey(key)) {
                    return;
                }
                if (d.version != null && AppVersion.compare(d.version, rules.minAckVersion) < 0) {
                    out.add(LongconnAction.of(e.ts, e.msgId, e.deviceId, "untracked", 0, null));
                    return;
                }
                Pair p = new Pair();
                p.sentTs = e.ts;
                p.last = e.ts;
                p.delay = delay(1, d, 0);
                pairs.put(key, p);
                queue.add(new Pending(p.last + p.delay, e.msgId, e.deviceId));
            }
            case "ack" -> {
                Pair p = pairs.remove(key);
                if (p == null) {
                    return;
                }
                queue.remove(new Pending(p.last + p.delay, e.msgId, e.deviceId));
                out.add(
                        LongconnAction.of(
                                e.ts, e.msgId, e.deviceId, "acked", p.retries, e.ts - p.sentTs));
                d.learned = null;
            }
            default -> throw new IllegalArgumentException(e.type);
        }
    }

    private void due(Pending x) {
        List<String> key = List.of(x.msgId(), x.deviceId());
        Pair p = pairs.get(key);
        Device d = device(x.deviceId());
        int k = p.retries + 1;
        if (p.delay > rules.maxDelayMs) {
            pairs.remove(key);
            out.add(LongconnAction.of(x.due(), x.msgId(), x.deviceId(), "give_up", k - 1, p.delay));
            return;
        }
        if (d.offline) {
            pairs.remove(key);
            out.add(LongconnAction.of(x.due(), x.msgId(), x.deviceId(), "fallback", k, p.delay));
            return;
        }
        out.add(LongconnAction.of(x.due(), x.msgId(), x.deviceId(), "retry", k, p.delay));
        if (k > rules.probeTries) {
            d.learned = p.delay;
        }
        p.retries = k;
        p.last = x.due();
        p.delay = delay(k + 1, d, p.delay);
        queue.add(new Pending(p.last + p.delay, x.msgId(), x.deviceId()));
    }

    private long delay(int k, Device d, long previous) {
        if (k <= rules.probeTries) {
            return rules.probeDelayMs;
        }
        if (k == rules.probeTries + 1) {
            return d.learned != null ? d.learned : rules.probeDelayMs + rules.stepMs;
        }
        return previous + rules.stepMs;
    }
}
