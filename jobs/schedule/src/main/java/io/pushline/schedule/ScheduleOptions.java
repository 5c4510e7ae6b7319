package io.pushline.schedule;

import io.pushline.common.CommonOptions;
import io.pushline.recall.RecallOptions;
import io.pushline.sendtime.SendTimeOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of the schedule's two jobs, under {@code schedule.}: the nightly job (day, lead,
 * deadline, plus the send-time and recall options of its two stages) and the feed ({@code
 * schedule.feed-}, plus the lead).
 */
public final class ScheduleOptions {
    private ScheduleOptions() {}

    public static final ConfigOption<String> DATE =
            ConfigOptions.key("schedule.date")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The nightly job's day, YYYY-MM-DD (blank: the default): send time, recall and the"
                                    + " personal slots are for it (sendtime.date and recall.date"
                                    + " are not used). Default: tomorrow in the send-time rules'"
                                    + " zone.");

    public static final ConfigOption<Duration> LEAD =
            ConfigOptions.key("schedule.lead")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(30))
                    .withDescription(
                            "How long before its slot a personal push enters the dispatch job"
                                    + " (its 'ts'); it waits there in the scheduler until the slot"
                                    + " ('at').");

    public static final ConfigOption<Duration> DEADLINE =
            ConfigOptions.key("schedule.deadline")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "A personal push still waiting for its vendor this long after its"
                                    + " slot is dropped as expired. 0: no deadline.");

    public static final ConfigOption<String> FEED_FROM =
            ConfigOptions.key("schedule.feed-from")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "First slot minute the feed loads: an ISO instant"
                                    + " (2026-11-23T00:00:00Z) or a date (its UTC midnight)."
                                    + " Default: the minute starting schedule.lead from now. On a"
                                    + " restart from a checkpoint the feed goes on where it was.");

    public static final ConfigOption<String> FEED_UNTIL =
            ConfigOptions.key("schedule.feed-until")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Slot minute (exclusive) where the feed stops, same forms as"
                                    + " schedule.feed-from. Default: none (runs until cancelled).");

    public static final ConfigOption<Boolean> FEED_FOLLOW_CLOCK =
            ConfigOptions.key("schedule.feed-follow-clock")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Load each minute's slots schedule.lead before the minute by the wall"
                                    + " clock. false: load the whole range at once (backfills,"
                                    + " tests; the dispatch job's scheduler still holds each"
                                    + " push until its slot in event time).");

    public static final ConfigOption<String> FEED_TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("schedule.feed-transactional-id-prefix")
                    .stringType()
                    .defaultValue("pushline-schedule-feed")
                    .withDescription(
                            "Prefix of the exactly-once sinks' transactional ids; unique per job"
                                    + " on one Kafka cluster.")
                    .withDeprecatedKeys("kafka.transactional-id-prefix");

    /**
     * What the nightly job accepts: the common options, its day, lead and deadline, and the options
     * of its send-time and recall stages (not their dates: {@link #DATE} sets both).
     */
    public static List<ConfigOption<?>> nightly() {
        List<ConfigOption<?>> own = new ArrayList<>(nightlyOwn());
        own.addAll(
                List.of(
                        SendTimeOptions.ACTIVITY,
                        SendTimeOptions.ACTIVITY_TOPIC,
                        SendTimeOptions.RULES,
                        SendTimeOptions.PREDICTOR,
                        RecallOptions.DATA,
                        RecallOptions.K,
                        RecallOptions.PUSHED_DAYS));
        return CommonOptions.with(own);
    }

    /** The nightly job's own options (not its stages'). */
    public static List<ConfigOption<?>> nightlyOwn() {
        return List.of(DATE, LEAD, DEADLINE);
    }

    /** What the schedule feed accepts: the common options, the lead and its own. */
    public static List<ConfigOption<?>> feed() {
        return CommonOptions.with(feedOwn());
    }

    /** The feed's own options. */
    public static List<ConfigOption<?>> feedOwn() {
        return List.of(
                LEAD, FEED_FROM, FEED_UNTIL, FEED_FOLLOW_CLOCK, FEED_TRANSACTIONAL_ID_PREFIX);
    }
}
