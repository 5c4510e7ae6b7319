package io.pushline.dispatch.gate;

import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Local wall-clock time of an instant in a zone, as milliseconds since the local epoch. Every push
 * needs it; {@link ZoneRules#getOffset(Instant)} searches the zone's transitions (and, past the
 * listed ones, a per-year table) each time. A zone keeps one offset for months, so the span around
 * the last instant asked for is kept per zone and a time inside it is one comparison.
 */
final class LocalClock {
    /** [from, until) in epoch ms, with one offset. */
    private record Span(long from, long until, long offsetMs) {}

    private static final Map<ZoneId, Span> SPANS = new ConcurrentHashMap<>();

    private LocalClock() {}

    static long localMillis(ZoneId zone, long t) {
        Span s = SPANS.get(zone);
        if (s == null || t < s.from || t >= s.until) {
            s = span(zone.getRules(), t);
            SPANS.put(zone, s);
        }
        return t + s.offsetMs;
    }

    private static Span span(ZoneRules rules, long t) {
        Instant at = Instant.ofEpochMilli(t);
        long offset = rules.getOffset(at).getTotalSeconds() * 1000L;
        if (rules.isFixedOffset()) {
            return new Span(Long.MIN_VALUE, Long.MAX_VALUE, offset);
        }
        ZoneOffsetTransition next = rules.nextTransition(at);
        long until = next == null ? Long.MAX_VALUE : next.toEpochSecond() * 1000L;
        ZoneOffsetTransition previous = rules.previousTransition(at.plusMillis(1));
        long from = previous == null ? Long.MIN_VALUE : previous.toEpochSecond() * 1000L;
        // Only where the offset certainly holds from `from` on; else just this instant.
        if (from > t
                || rules.getOffset(Instant.ofEpochMilli(from)).getTotalSeconds() * 1000L
                        != offset) {
            from = t;
        }
        return new Span(from, until, offset);
    }
}
