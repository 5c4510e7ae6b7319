package io.pushline.schema.reminders;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/** Side outputs of the reminders operators. */
public final class ReminderTags {
    /** Events refused by the contract's rules, with the reason (to {@code reminder.rejected}). */
    public static final OutputTag<ReminderLine> REJECTED =
            new OutputTag<>("reminder-rejected", TypeInformation.of(ReminderLine.class));

    /** Changes for the HBase reminders table that the pull endpoint reads. */
    public static final OutputTag<ReminderMirror> MIRROR =
            new OutputTag<>("reminder-mirror", TypeInformation.of(ReminderMirror.class));

    private ReminderTags() {}
}
