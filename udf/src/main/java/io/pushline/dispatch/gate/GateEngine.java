package io.pushline.dispatch.gate;

import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.registry.DeviceInfo;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gate of docs/dispatch-gate.md, steps 2 to 9, for one (push, bound device) at event time t.
 * Pure: the caller loads and stores the device's {@link GateState}; pushes of one device must come
 * in event-time order.
 */
public final class GateEngine {
    private static final long DAY_MS = 86_400_000L;

    private GateEngine() {}

    /** The outcome for one device: null reason for a PASS; the level the push was judged at. */
    public record Outcome(DropReason reason, int level, boolean whitelisted) {
        public boolean pass() {
            return reason == null;
        }
    }

    /**
     * Decides and, on a PASS, updates {@code s}.
     *
     * @return the outcome; {@code s} changed only when it is a PASS
     */
    public static Outcome decide(Rules rules, GateState s, PushRequest p, DeviceInfo d, long t) {
        return decide(rules, s, p, d, t, hash(p.msgId), copyHash(p.title, p.body));
    }

    /** As above, with the push's {@link #hash msgId hash} and {@link #copyHash} at hand. */
    public static Outcome decide(
            Rules rules,
            GateState s,
            PushRequest p,
            DeviceInfo d,
            long t,
            long idHash,
            long copyHash) {
        Rules.MsgType type = rules.effective(p.msgType);
        int level = p.level != null ? p.level : type.level();
        if (!d.pushEnabled) {
            return new Outcome(DropReason.PUSH_DISABLED, level, false);
        }
        if (rules.dedupeWindow != null && isDuplicate(s, idHash, copyHash, t, rules.dedupeWindow)) {
            return new Outcome(DropReason.DUPLICATE, level, false);
        }
        // Most rules have no whitelist: then not even the deviceId's hash is looked at.
        boolean whitelisted =
                (!rules.whitelistMsgTypes.isEmpty() && rules.whitelistMsgTypes.contains(p.msgType))
                        || (!rules.whitelistDevices.isEmpty()
                                && rules.whitelistDevices.contains(d.deviceId));
        if (!whitelisted) {
            // Local wall-clock time of t in the device's zone, in ms since the local epoch.
            long local = LocalClock.localMillis(zone(rules, d), t);
            Rules.Cap cap = type.cap();
            DropReason drop = filters(rules, s, p.msgType, cap, level, t, local);
            if (drop != null) {
                return new Outcome(drop, level, false);
            }
            remember(rules, s, idHash, copyHash, t);
            count(rules, s, p.msgType, cap, t, (int) Math.floorDiv(local, DAY_MS));
        } else {
            remember(rules, s, idHash, copyHash, t);
        }
        return new Outcome(null, level, whitelisted);
    }

    private static DropReason filters(
            Rules rules,
            GateState s,
            String msgType,
            Rules.Cap cap,
            int level,
            long t,
            long local) {
        Rules.QuietHours q = rules.quietHours;
        if (q != null
                && Rules.applies(level, q.exemptLevel())
                && q.contains(LocalTime.ofNanoOfDay(Math.floorMod(local, DAY_MS) * 1_000_000L))) {
            return DropReason.QUIET_HOURS;
        }
        Rules.MinInterval mi = rules.minInterval;
        if (mi != null
                && Rules.applies(level, mi.exemptLevel())
                && s.lastCountedPass != Long.MIN_VALUE
                && t - s.lastCountedPass < mi.period()) {
            return DropReason.MIN_INTERVAL;
        }
        if (cap != null) {
            int i = s.windowIndex(msgType);
            if (i >= 0
                    && t < s.windowStarts[i] + cap.period()
                    && s.windowCounts[i] >= cap.limit()) {
                return DropReason.TYPE_CAP;
            }
        }
        Rules.DailyCap dc = rules.dailyCap;
        if (dc != null && Rules.applies(level, dc.exemptLevel())) {
            int today = (int) Math.floorDiv(local, DAY_MS);
            int counted = s.day == today ? s.dayCount : 0;
            if (counted >= dc.limit()) {
                return DropReason.DAILY_CAP;
            }
        }
        return null;
    }

    private static boolean isDuplicate(
            GateState s, long idHash, long copyHash, long t, long window) {
        long[] seen = s.seen;
        for (int i = 0; i < seen.length; i += 3) {
            // Low 32 bits: state written before the hashes were narrowed still matches.
            if (t - seen[i + 2] < window
                    && ((int) seen[i] == (int) idHash || (int) seen[i + 1] == (int) copyHash)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A pass of any kind: counts it, keeps (msgId, t) and ((title, body), t) for dedupe, dropping
     * what the window has left.
     */
    private static void remember(Rules rules, GateState s, long idHash, long copyHash, long t) {
        s.passes++;
        if (rules.dedupeWindow == null) {
            s.seen = new long[0];
            return;
        }
        long window = rules.dedupeWindow;
        long[] seen = s.seen;
        int keep = 0;
        for (int i = 0; i < seen.length; i += 3) {
            if (t - seen[i + 2] < window) {
                seen[keep++] = seen[i];
                seen[keep++] = seen[i + 1];
                seen[keep++] = seen[i + 2];
            }
        }
        s.seen = java.util.Arrays.copyOf(seen, keep);
        s.addSeen(idHash, copyHash, t);
    }

    /** A counted pass: interval, the msgType's window, the local day. */
    private static void count(
            Rules rules, GateState s, String msgType, Rules.Cap cap, long t, int localDay) {
        s.lastCountedPass = t;
        if (cap != null) {
            int i = s.windowIndex(msgType);
            if (i >= 0 && t < s.windowStarts[i] + cap.period()) {
                s.windowCounts[i]++;
            } else {
                s.putWindow(msgType, t, 1);
            }
        }
        // Windows closed at t can never count again: events of a device come in time order.
        for (int i = s.windowTypes.length - 1; i >= 0; i--) {
            Rules.Cap c = s.windowTypes[i].equals(msgType) ? cap : rules.cap(s.windowTypes[i]);
            if (c == null || t >= s.windowStarts[i] + c.period()) {
                s.removeWindow(i);
            }
        }
        if (s.day == localDay) {
            s.dayCount++;
        } else {
            s.day = localDay;
            s.dayCount = 1;
        }
    }

    public static ZoneId zone(Rules rules, DeviceInfo d) {
        if (d.tz != null && !d.tz.isEmpty()) {
            // ZoneId.of parses its argument every time: a per-push cost worth caching.
            return ZONES.computeIfAbsent(d.tz, ZoneId::of);
        }
        return rules.timezone;
    }

    private static final Map<String, ZoneId> ZONES = new ConcurrentHashMap<>();

    /**
     * The dedupe memory's hashes are 32 bits (FNV-1a 64, murmur3 finalizer, low half): four bytes a
     * pass in RocksDB instead of eight. A push is taken for a duplicate by mistake only when its
     * msgId or copy collides with one of the device's passes still in the window: about k / 2^32
     * per push for k remembered passes (one in 700 million pushes at three passes a day).
     */
    public static long hash(String s) {
        return (int) mix(fnv(0xcbf29ce484222325L, s == null ? "" : s));
    }

    /** The copy's identity: title and body, with the title's length so "ab"+"c" != "a"+"bc". */
    public static long copyHash(String title, String body) {
        String t = title == null ? "" : title;
        long h = fnv(0xcbf29ce484222325L, Integer.toString(t.length()));
        h = fnv(fnv(h, ":"), t);
        return (int) mix(fnv(h, body == null ? "" : body));
    }

    /** FNV-1a over the UTF-16 code units, two bytes each: no array per call. */
    private static long fnv(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            h ^= c & 0xff;
            h *= 0x100000001b3L;
            h ^= c >>> 8;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb3f53e63b9feL;
        k ^= k >>> 33;
        return k;
    }
}
