package io.pushline.sendtime.predict;

import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.schema.sendtime.UserDays;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * The rule-based predictor of docs/send-time.md: where an event falls, and a user's first and last.
 */
public final class SendTimePredictor {
    private SendTimePredictor() {}

    /**
     * The event on its local date and minute (its own zone, else the rules'), as one day of {@link
     * UserDays}; null when that date is not one of the {@code lookbackDays} dates before {@code
     * date}.
     */
    public static UserDays place(ActivityEvent e, SendTimeRules rules, LocalDate date) {
        ZoneId zone = e.tz != null ? ZoneId.of(e.tz) : rules.timezone;
        ZonedDateTime local = Instant.ofEpochMilli(e.ts).atZone(zone);
        long day = ChronoUnit.DAYS.between(local.toLocalDate(), date) - 1;
        if (day < 0 || day >= rules.lookbackDays) {
            return null;
        }
        return UserDays.of(
                e.uid, rules.lookbackDays, (int) day, local.getHour() * 60 + local.getMinute());
    }

    public static SendTime predict(UserDays u, SendTimeRules rules) {
        return SendTime.of(
                u.uid,
                SendTimeRules.format(choose(u.earliest, rules.first)),
                SendTimeRules.format(choose(u.latest, rules.last)));
    }

    /**
     * The first rule with at least minDays days whose minute is in its window, else the default.
     */
    static int choose(int[] minuteByDay, SendTimeRules.Side side) {
        for (SendTimeRules.Rule r : side.rules) {
            int days = 0;
            for (int m : minuteByDay) {
                if (m >= 0 && r.contains(m)) {
                    days++;
                }
            }
            if (days >= r.minDays) {
                return r.at;
            }
        }
        return side.defaultMinute;
    }
}
