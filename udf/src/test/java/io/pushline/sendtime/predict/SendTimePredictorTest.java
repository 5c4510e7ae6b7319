package io.pushline.sendtime.predict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.schema.sendtime.UserDays;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class SendTimePredictorTest {
    static final LocalDate D = LocalDate.of(2026, 11, 22);
    static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    @Test
    void theDefaultRulesPickTheFirstRuleThatHolds() {
        assertThat(predict(at(1, "05:30"), at(2, "06:00"))).isEqualTo(times("05:30", "21:45"));
        // 06:01 is outside the first window: only the second rule holds
        assertThat(predict(at(1, "05:30"), at(2, "06:01"))).isEqualTo(times("06:00", "21:45"));
        // one day is not enough
        assertThat(predict(at(1, "05:45"))).isEqualTo(times("06:30", "21:45"));
        assertThat(predict(at(1, "22:15"), at(3, "22:45"))).isEqualTo(times("06:30", "22:15"));
        assertThat(predict(at(1, "22:46"), at(3, "23:59"))).isEqualTo(times("06:30", "22:45"));
    }

    @Test
    void aDayCountsByItsEarliestAndLatestMinuteOnly() {
        // earliest 05:10 on both days (outside the windows) although 05:40 was active too
        assertThat(predict(at(1, "05:10"), at(1, "05:40"), at(2, "05:10"), at(2, "05:40")))
                .isEqualTo(times("06:30", "21:45"));
        // latest 23:00 on day 1, 22:20 on day 2: both in the second last-window only
        assertThat(predict(at(1, "22:20"), at(1, "23:00"), at(2, "22:20")))
                .isEqualTo(times("06:30", "22:45"));
    }

    @Test
    void secondsAreDroppedAndTheLookBackIsTheDaysBeforeTheDate() {
        ActivityEvent lateSecond = event(LocalDateTime.of(2026, 11, 21, 6, 0, 59), null);
        ActivityEvent sevenBack = event(LocalDateTime.of(2026, 11, 15, 5, 45), null);
        assertThat(predict(lateSecond, sevenBack)).isEqualTo(times("05:30", "21:45"));
        assertThat(place(event(LocalDateTime.of(2026, 11, 14, 23, 59), null))).isNull();
        assertThat(place(event(LocalDateTime.of(2026, 11, 22, 0, 0), null))).isNull();
        assertThat(place(event(LocalDateTime.of(2026, 11, 21, 23, 59), null)).latest[0])
                .isEqualTo(23 * 60 + 59);
    }

    @Test
    void eachEventFallsOnTheDateAndMinuteOfItsOwnZone() {
        // 2026-11-20 21:50 UTC is 2026-11-21 05:50 in Shanghai
        long ts =
                LocalDateTime.of(2026, 11, 20, 21, 50)
                        .toInstant(java.time.ZoneOffset.UTC)
                        .toEpochMilli();
        UserDays inUtc = place(ActivityEvent.of("u", ts, "UTC"));
        UserDays inRulesZone = place(ActivityEvent.of("u", ts, null));
        assertThat(inUtc.earliest[1]).isEqualTo(21 * 60 + 50);
        assertThat(inRulesZone.earliest[0]).isEqualTo(5 * 60 + 50);
    }

    @Test
    void aWindowWhoseStartIsAfterItsEndWrapsMidnight() {
        SendTimeRules r =
                SendTimeRules.parse(
                        "last: {default: \"21:00\", rules: [{window: [\"23:30\", \"01:00\"],"
                                + " minDays: 1, at: \"23:00\"}]}");
        assertThat(SendTimePredictor.choose(new int[] {30, -1}, r.last)).isEqualTo(23 * 60);
        assertThat(SendTimePredictor.choose(new int[] {23 * 60 + 45}, r.last)).isEqualTo(23 * 60);
        assertThat(SendTimePredictor.choose(new int[] {61}, r.last)).isEqualTo(21 * 60);
    }

    @Test
    void aRulesFileReplacesTheDefaultsAndNamesTheBadKey() {
        SendTimeRules r =
                SendTimeRules.parse("lookbackDays: 3\nfirst: {default: \"07:00\", rules: []}\n");
        assertThat(r.timezone).isEqualTo(java.time.ZoneOffset.UTC);
        assertThat(r.lookbackDays).isEqualTo(3);
        assertThat(r.first.rules).isEmpty();
        assertThat(r.last.defaultMinute).isEqualTo(21 * 60 + 45);
        assertThat(SendTimeRules.defaults().timezone).isEqualTo(SHANGHAI);
        assertThatThrownBy(() -> SendTimeRules.parse("lookback: 3"))
                .hasMessageStartingWith("lookback: unknown key");
        assertThatThrownBy(() -> SendTimeRules.parse("timezone: Mars/Base"))
                .hasMessage("timezone: unknown zone 'Mars/Base'");
        assertThatThrownBy(
                        () ->
                                SendTimeRules.parse(
                                        "first: {rules: [{window: [\"05:30\", \"25:00\"], at:"
                                                + " \"05:30\"}]}"))
                .hasMessageStartingWith("first.rules[0].window: bad time '25:00'");
        assertThatThrownBy(() -> SendTimeRules.parse("last: {rules: [{window: [\"22:00\"]}]}"))
                .hasMessageStartingWith("last.rules[0].window: expected");
        assertThatThrownBy(() -> SendTimeRules.parse("lookbackDays: 0"))
                .hasMessage("lookbackDays: must be 1 to 366, got 0");
    }

    private static SendTime times(String first, String last) {
        return SendTime.of("u", first, last);
    }

    /** An event in the rules' zone on the day {@code daysBack} before D, at HH:MM:30. */
    private static ActivityEvent at(int daysBack, String hhmm) {
        String[] p = hhmm.split(":");
        return event(
                D.minusDays(daysBack).atTime(Integer.parseInt(p[0]), Integer.parseInt(p[1]), 30),
                null);
    }

    private static ActivityEvent event(LocalDateTime local, String tz) {
        ZoneId zone = tz == null ? SHANGHAI : ZoneId.of(tz);
        return ActivityEvent.of("u", local.atZone(zone).toInstant().toEpochMilli(), tz);
    }

    private static UserDays place(ActivityEvent e) {
        return SendTimePredictor.place(e, SendTimeRules.defaults(), D);
    }

    private static SendTime predict(ActivityEvent... events) {
        UserDays all = null;
        for (ActivityEvent e : List.of(events)) {
            UserDays u = place(e);
            all = all == null ? u : all.merge(u);
        }
        return SendTimePredictor.predict(all, SendTimeRules.defaults());
    }
}
