package io.pushline.schema.reminders;

import java.time.Instant;
import java.time.ZoneId;

/** Time rules of reminder tasks, shared by the job and the pull endpoint. */
public final class ReminderTimes {
    private ReminderTimes() {}

    /**
     * The first instant of the local date of {@code fireAt} in {@code zone}: midnight, or the first
     * time that exists that day when a clock change skips midnight. From then on the task cannot
     * change and may be pulled.
     */
    public static long freeze(long fireAt, String zone) {
        ZoneId z = ZoneId.of(zone);
        return Instant.ofEpochMilli(fireAt)
                .atZone(z)
                .toLocalDate()
                .atStartOfDay(z)
                .toInstant()
                .toEpochMilli();
    }
}
