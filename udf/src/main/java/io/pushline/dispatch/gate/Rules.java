package io.pushline.dispatch.gate;

import io.pushline.dispatch.pacing.PacingConfig;
import java.io.Serializable;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The gate's rules (rules.yaml of docs/dispatch-gate.md), parsed and checked. A missing section is
 * null and disables its filter. Immutable; build one with {@link RulesParser}.
 */
public final class Rules implements Serializable {
    private static final long serialVersionUID = 1L;

    public final ZoneId timezone;
    public final QuietHours quietHours;
    public final MinInterval minInterval;
    public final DailyCap dailyCap;

    /** Dedupe window in milliseconds, or null. */
    public final Long dedupeWindow;

    /** By msgType name; "default" applies to names not listed. */
    public final Map<String, MsgType> msgTypes;

    public final Set<String> whitelistMsgTypes;
    public final Set<String> whitelistDevices;

    /** The pacer's section, or null (not a gate rule: the gate ignores it). */
    public final PacingConfig.Overrides pacing;

    /** The document these rules came from, as given. */
    public final String source;

    /** Level and cap as they apply to each listed msgType, and to every unlisted one. */
    private final Map<String, MsgType> effective;

    private final MsgType unlisted;

    Rules(
            ZoneId timezone,
            QuietHours quietHours,
            MinInterval minInterval,
            DailyCap dailyCap,
            Long dedupeWindow,
            Map<String, MsgType> msgTypes,
            Set<String> whitelistMsgTypes,
            Set<String> whitelistDevices,
            PacingConfig.Overrides pacing,
            String source) {
        this.timezone = timezone;
        this.quietHours = quietHours;
        this.minInterval = minInterval;
        this.dailyCap = dailyCap;
        this.dedupeWindow = dedupeWindow;
        this.msgTypes = msgTypes;
        this.whitelistMsgTypes = whitelistMsgTypes;
        this.whitelistDevices = whitelistDevices;
        this.pacing = pacing;
        this.source = source;
        MsgType dflt = msgTypes.get(MsgType.DEFAULT);
        int defaultLevel = dflt != null && dflt.level != null ? dflt.level : 1;
        this.unlisted = new MsgType(defaultLevel, dflt == null ? null : dflt.cap);
        this.effective = new HashMap<>();
        msgTypes.forEach(
                (name, t) ->
                        effective.put(
                                name,
                                new MsgType(t.level != null ? t.level : defaultLevel, t.cap)));
    }

    /**
     * The msgType's level and cap as they apply (its own when listed, default's when not; level
     * never null): one lookup for all the gate needs.
     */
    public MsgType effective(String msgType) {
        MsgType t = effective.get(msgType);
        return t != null ? t : unlisted;
    }

    /** P.level, else msgTypes[P.msgType].level, else msgTypes.default.level, else 1. */
    public int level(Integer requestLevel, String msgType) {
        return requestLevel != null ? requestLevel : effective(msgType).level;
    }

    /** The cap of a msgType: its own when listed (or none), default's when not listed. */
    public Cap cap(String msgType) {
        return effective(msgType).cap;
    }

    /** The longest time any rule looks back: state older than this can never matter. */
    public Duration lookBack() {
        long ms = Duration.ofDays(2).toMillis(); // the current local day, in any zone
        if (dedupeWindow != null) {
            ms = Math.max(ms, dedupeWindow);
        }
        if (minInterval != null) {
            ms = Math.max(ms, minInterval.period);
        }
        for (MsgType t : msgTypes.values()) {
            if (t.cap != null) {
                ms = Math.max(ms, t.cap.period);
            }
        }
        return Duration.ofMillis(ms);
    }

    /** True when a device at this level is subject to a filter with this exempt level. */
    static boolean applies(int level, Integer exemptLevel) {
        return exemptLevel == null || level < exemptLevel;
    }

    /** quietHours: [start, end) in local time, wrapping midnight when start > end. */
    public record QuietHours(LocalTime start, LocalTime end, Integer exemptLevel)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        public boolean contains(LocalTime t) {
            int c = start.compareTo(end);
            if (c == 0) {
                return false;
            }
            if (c < 0) {
                return !t.isBefore(start) && t.isBefore(end);
            }
            return !t.isBefore(start) || t.isBefore(end);
        }
    }

    /** minInterval between counted passes, in milliseconds. */
    public record MinInterval(long period, Integer exemptLevel) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** dailyCap: counted passes per local calendar day. */
    public record DailyCap(int limit, Integer exemptLevel) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** A msgTypes entry: level and cap, each optional. */
    public record MsgType(Integer level, Cap cap) implements Serializable {
        private static final long serialVersionUID = 1L;
        public static final String DEFAULT = "default";
    }

    /** At most {@code limit} counted passes per window of {@code period} ms. */
    public record Cap(int limit, long period) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
