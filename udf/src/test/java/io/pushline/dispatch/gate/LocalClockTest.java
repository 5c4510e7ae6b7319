package io.pushline.dispatch.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LocalClockTest {
    private static final List<ZoneId> ZONES =
            List.of(
                    ZoneId.of("Europe/Berlin"),
                    ZoneId.of("America/New_York"),
                    ZoneId.of("Asia/Shanghai"),
                    ZoneId.of("Australia/Lord_Howe"),
                    ZoneId.of("America/Sao_Paulo"),
                    ZoneId.of("Asia/Kolkata"),
                    ZoneId.of("UTC"));

    private static long expected(ZoneId zone, long t) {
        return t + zone.getRules().getOffset(Instant.ofEpochMilli(t)).getTotalSeconds() * 1000L;
    }

    @Test
    void agreesWithTheZoneRulesAtRandomTimesInAnyOrder() {
        Random random = new Random(5);
        long lo = Instant.parse("1900-01-01T00:00:00Z").toEpochMilli();
        long hi = Instant.parse("2100-01-01T00:00:00Z").toEpochMilli();
        long t = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < 200_000; i++) {
            ZoneId zone = ZONES.get(random.nextInt(ZONES.size()));
            // mostly small steps either way, as pushes come; sometimes a jump anywhere
            t =
                    random.nextInt(100) == 0
                            ? lo + (long) (random.nextDouble() * (hi - lo))
                            : t + random.nextInt(4 * 3_600_000) - 1_000_000;
            assertThat(LocalClock.localMillis(zone, t))
                    .as("%s at %d", zone, t)
                    .isEqualTo(expected(zone, t));
        }
    }

    @Test
    void agreesAtEveryTransitionAndAMillisecondEitherSide() {
        int checked = 0;
        for (ZoneId zone : ZONES) {
            List<Long> times = new ArrayList<>();
            Instant at = Instant.parse("1970-01-01T00:00:00Z");
            Instant end = Instant.parse("2040-01-01T00:00:00Z");
            ZoneOffsetTransition tr;
            while ((tr = zone.getRules().nextTransition(at)) != null
                    && tr.getInstant().isBefore(end)) {
                long ms = tr.getInstant().toEpochMilli();
                times.add(ms - 1);
                times.add(ms);
                times.add(ms + 1);
                at = tr.getInstant();
            }
            // in time order, and again backwards, so each span is entered from both sides
            for (int pass = 0; pass < 2; pass++) {
                for (int i = 0; i < times.size(); i++) {
                    long t = times.get(pass == 0 ? i : times.size() - 1 - i);
                    assertThat(LocalClock.localMillis(zone, t))
                            .as("%s at %d", zone, t)
                            .isEqualTo(expected(zone, t));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(1_000);
    }
}
