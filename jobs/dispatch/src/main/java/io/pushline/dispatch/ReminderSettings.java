package io.pushline.dispatch;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.reminders.HBaseReminderSink;
import io.pushline.reminders.ReminderRules;
import io.pushline.reminders.UidIds;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;

/** How the dispatch job runs reminders: the global rate, what their pushes look like. */
public final class ReminderSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The meter holds rate x delay sends in operator state: a minute is already a lot. */
    static final Duration MAX_METER_DELAY = Duration.ofSeconds(60);

    final ReminderRules rules;
    final String msgType;
    final int level;
    final UidIds.Factory ids;

    /** The reminder meter's delay; 0: no meter. */
    final long meterDelayMs;

    /** Where reminders are mirrored for the pull endpoint; null: nowhere. */
    final HBaseReminderSink mirror;

    public ReminderSettings(
            ReminderRules rules,
            String msgType,
            int level,
            UidIds.Factory ids,
            HBaseReminderSink mirror,
            long meterDelayMs) {
        this.rules = rules;
        this.msgType = msgType;
        this.level = level;
        this.ids = ids;
        this.mirror = mirror;
        this.meterDelayMs = meterDelayMs;
    }

    /**
     * From {@code dispatch.reminders.*}; null when reminders are off or there is no HBase
     * dictionary.
     *
     * @throws IllegalArgumentException naming the option when a value is out of range
     */
    public static ReminderSettings from(Configuration options) {
        if (!options.get(DispatchOptions.REMINDERS_ENABLED)) {
            return null;
        }
        int rate = options.get(DispatchOptions.REMINDERS_RATE);
        if (rate <= 0) {
            throw new IllegalArgumentException(
                    "option '"
                            + DispatchOptions.REMINDERS_RATE.key()
                            + "' must be at least 1, got "
                            + rate);
        }
        String msgType = options.get(DispatchOptions.REMINDERS_MSG_TYPE);
        if (msgType == null || msgType.isBlank()) {
            throw new IllegalArgumentException(
                    "option '" + DispatchOptions.REMINDERS_MSG_TYPE.key() + "' must not be empty");
        }
        int level = options.get(DispatchOptions.REMINDERS_LEVEL);
        if (level < 1 || level > 15) {
            throw new IllegalArgumentException(
                    "option '"
                            + DispatchOptions.REMINDERS_LEVEL.key()
                            + "' must be between 1 and 15, got "
                            + level);
        }
        Duration delay = options.get(DispatchOptions.REMINDERS_METER_DELAY);
        if (delay.isNegative() || delay.compareTo(MAX_METER_DELAY) > 0) {
            throw new IllegalArgumentException(
                    "option '"
                            + DispatchOptions.REMINDERS_METER_DELAY.key()
                            + "' must be between 0 s and "
                            + MAX_METER_DELAY.toSeconds()
                            + " s, got "
                            + delay.toMillis()
                            + " ms");
        }
        String quorum = HBaseTables.address(options);
        if (quorum == null || quorum.isBlank()) {
            return null;
        }
        String namespace = options.get(CommonOptions.HBASE_NAMESPACE);
        UidIds.Factory ids =
                UidIds.hbase(quorum, namespace, options.get(CommonOptions.HBASE_DICTIONARY_CACHE));
        return new ReminderSettings(
                new ReminderRules(rate),
                msgType,
                level,
                ids,
                new HBaseReminderSink(quorum, namespace),
                delay.toMillis());
    }
}
