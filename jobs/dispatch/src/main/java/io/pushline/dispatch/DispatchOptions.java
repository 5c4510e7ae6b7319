package io.pushline.dispatch;

import io.pushline.common.CommonOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The dispatch job's options, all under {@code dispatch.}: event time, the gate ({@code
 * dispatch.gate.}), campaign expansion ({@code dispatch.audience.}) and pacing ({@code
 * dispatch.pacing.}). The keys these had before they moved under the prefix still work, with a
 * warning.
 */
public final class DispatchOptions {
    private DispatchOptions() {}

    public static final ConfigOption<String> GROUP_ID =
            ConfigOptions.key("dispatch.group-id")
                    .stringType()
                    .defaultValue("pushline-dispatch")
                    .withDescription(
                            "Consumer group id of the dispatch job's sources; they commit offsets under it (its rules, pacing-report and feedback sources under it plus -rules, -pacing, -feedback).")
                    .withDeprecatedKeys("kafka.group-id");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("dispatch.transactional-id-prefix")
                    .stringType()
                    .defaultValue("pushline-dispatch")
                    .withDescription(
                            "Prefix of the exactly-once sinks' transactional ids; unique per job"
                                    + " on one Kafka cluster.")
                    .withDeprecatedKeys("kafka.transactional-id-prefix");

    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS =
            ConfigOptions.key("dispatch.max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "How far behind the newest event time an input record may arrive"
                                    + " and still be decided in time order; also the least"
                                    + " latency the dispatch job adds.");

    public static final ConfigOption<Integer> SCHEDULE_RELEASE_RATE =
            ConfigOptions.key("dispatch.schedule.release-rate")
                    .intType()
                    .defaultValue(10_000)
                    .withDescription(
                            "With dispatch.audience.hold-watermark false: requests held for their 'at' (personal slots) leave the scheduler at most this many a second over the job once due; the rest wait for later watermarks and are decided when they leave, so a minute's slots due together do not hold realtime pushes behind them; with pacing on, also no faster than the pacers' reports say the stages absorb (dispatch.audience.target-delay). 0: all at once. With hold-watermark true (replay's order) all leave at once, at their 'at'.");

    public static final ConfigOption<Duration> MAX_SCHEDULE_AHEAD =
            ConfigOptions.key("dispatch.max-schedule-ahead")
                    .durationType()
                    .defaultValue(Duration.ofDays(2))
                    .withDescription(
                            "A request's 'at' may be at most this long after its 'ts'; the"
                                    + " request waits in the scheduler's state until then."
                                    + " Further ahead is a dead letter.");

    public static final ConfigOption<Duration> MAX_FUTURE =
            ConfigOptions.key("dispatch.max-future")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "A device event or request whose 'ts' is more than this ahead of the"
                                    + " wall clock is a dead letter: it would wait in state for"
                                    + " the watermark to reach it, holding nothing back but"
                                    + " memory, without a word. 0 turns the check off.");

    public static final ConfigOption<Duration> MAX_PAST =
            ConfigOptions.key("dispatch.max-past")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "A push request whose 'ts' is more than this behind the wall clock is"
                                    + " a dead letter: the gate's memory of that time (caps,"
                                    + " intervals, copies) is gone, so it cannot be decided by"
                                    + " the rules. Device events are not checked: bindings have"
                                    + " no TTL. Default: dispatch.gate.state-ttl. 0 turns the"
                                    + " check off (replaying old traces).");

    public static final ConfigOption<Duration> IDLE_ADVANCE =
            ConfigOptions.key("dispatch.idle-advance")
                    .durationType()
                    .defaultValue(Duration.ofMillis(50))
                    .withDescription(
                            "After this long without input on a partition (time under"
                                    + " backpressure does not count, and a pause of it starts"
                                    + " the quiet again), and once the broker confirms its"
                                    + " reader is at the partition's log end, its watermark"
                                    + " follows the wall clock (as of that check), so the last"
                                    + " requests do not wait for newer ones. 0 turns it off.");

    public static final ConfigOption<Boolean> KEEP_RUNNING =
            ConfigOptions.key("dispatch.bounded.keep-running")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "With kafka.bounded=true: the input topics are read to the offsets"
                                    + " that were latest at the start as usual, but the control"
                                    + " topics (push.rules, push.pacing, the vendor feedback"
                                    + " topic) stay open, so the job decides all of its input"
                                    + " and then keeps running, its gate state in its"
                                    + " checkpoints, until it is stopped. ./pushline demo --keep"
                                    + " runs the job so, for the console's dry run.");

    public static final ConfigOption<Integer> MAX_PARALLELISM =
            ConfigOptions.key("dispatch.max-parallelism")
                    .intType()
                    .defaultValue(720)
                    .withDescription(
                            "Maximum parallelism (key groups) of every keyed operator; fixed for"
                                    + " the life of the job's state.");

    public static final ConfigOption<String> GATE_RULES =
            ConfigOptions.key("dispatch.gate.rules")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Path of the gate's rules file (YAML or JSON, as in"
                                    + " docs/dispatch-gate.md) in force at start; later versions"
                                    + " arrive on push.rules. Without it every filter is off"
                                    + " until push.rules brings rules.")
                    .withDeprecatedKeys("gate.rules");

    public static final ConfigOption<Duration> GATE_STATE_TTL =
            ConfigOptions.key("dispatch.gate.state-ttl")
                    .durationType()
                    .defaultValue(Duration.ofDays(8))
                    .withDescription(
                            "How long the gate keeps the memory of a device nobody pushed to"
                                    + " (processing time). Rules that look back further are"
                                    + " refused, so expiry never changes a decision.")
                    .withDeprecatedKeys("gate.state-ttl");

    public static final ConfigOption<Integer> AUDIENCE_CHUNK_SIZE =
            ConfigOptions.key("dispatch.audience.chunk-size")
                    .intType()
                    .defaultValue(5_000)
                    .withDescription(
                            "Ids per chunk when a campaign's audience is expanded; chunks are"
                                    + " spread over the parallel subtasks and are the unit of"
                                    + " checkpointed progress.")
                    .withDeprecatedKeys("audience.chunk-size");

    public static final ConfigOption<Integer> AUDIENCE_LIST_CHUNKING =
            ConfigOptions.key("dispatch.audience.chunk-lists-over")
                    .intType()
                    .defaultValue(50)
                    .withDescription(
                            "A request listing more uids or devices than this is expanded like a"
                                    + " campaign, in chunks at the pace the pacers' reports allow,"
                                    + " so the stages before the pacer never hold all of it at"
                                    + " once and realtime pushes do not wait behind it; shorter"
                                    + " lists go straight to the uid index or the registry. Needs"
                                    + " the segment store (hbase.zookeeper.quorum); without it"
                                    + " every list goes straight.");

    public static final ConfigOption<Long> AUDIENCE_MAX_IDS_PER_SECOND =
            ConfigOptions.key("dispatch.audience.max-ids-per-second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "Upper bound on how fast campaigns are expanded, in ids per second;"
                                    + " 0 for none (backpressure alone paces the expansion).")
                    .withDeprecatedKeys("audience.max-ids-per-second");

    public static final ConfigOption<Boolean> AUDIENCE_HOLD_WATERMARK =
            ConfigOptions.key("dispatch.audience.hold-watermark")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "true: a campaign is decided at its request's time and event time"
                                    + " waits for its last chunk (replay's exact order; pushes"
                                    + " after it wait too). false: each chunk is decided when it"
                                    + " is expanded (request time or the watermark, the later),"
                                    + " so realtime pushes never wait for a campaign.")
                    .withDeprecatedKeys("audience.hold-watermark");

    public static final ConfigOption<Duration> AUDIENCE_TARGET_DELAY =
            ConfigOptions.key("dispatch.audience.target-delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "With hold-watermark false and pacing on: how long a campaign's or"
                                    + " a fired reminder task's sends may queue in front of the"
                                    + " pacer, beyond the watermark's own wait. The expansion rate"
                                    + " and the reminder pacer's (at most dispatch.reminders.rate)"
                                    + " adapt to the pacer's reports so that realtime sends, which"
                                    + " queue behind them there, are not held up; 0 turns it off"
                                    + " (backpressure alone).");

    public static final ConfigOption<Boolean> PACING_ENABLED =
            ConfigOptions.key("dispatch.pacing.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Pace sends per vendor (rate over all subtasks, weighted levels);"
                                    + " false sends each PASS at once, for tests and replays.")
                    .withDeprecatedKeys("pacing.enabled");

    public static final ConfigOption<Map<String, String>> PACING_RATES =
            ConfigOptions.key("dispatch.pacing.rates")
                    .mapType()
                    .defaultValue(Map.of())
                    .withDescription(
                            "Messages per second per vendor, e.g. fcm:8000,xiaomi:1500; unlisted"
                                    + " vendors keep their defaults (apns 10000, fcm 10000, huawei"
                                    + " 3000, honor 3000, xiaomi 500, oppo 5000, vivo 3000,"
                                    + " longconn 20000). A rules document's pacing section"
                                    + " overrides this while the job runs.")
                    .withDeprecatedKeys("pacing.rates");

    public static final ConfigOption<Map<String, String>> PACING_WEIGHTS =
            ConfigOptions.key("dispatch.pacing.weights")
                    .mapType()
                    .defaultValue(Map.of())
                    .withDescription(
                            "Weight per level (0-15), e.g. 0:1,1:3; unlisted levels weigh"
                                    + " 2^level. Levels that wait share a vendor's rate by weight.")
                    .withDeprecatedKeys("pacing.weights");

    public static final ConfigOption<Integer> PACING_REALTIME_LEVEL =
            ConfigOptions.key("dispatch.pacing.realtime-level")
                    .intType()
                    .defaultValue(3)
                    .withDescription(
                            "Levels at or above this go out at the next token, ahead of any bulk"
                                    + " backlog (16: none).")
                    .withDeprecatedKeys("pacing.realtime-level");

    public static final ConfigOption<Duration> PACING_TICK =
            ConfigOptions.key("dispatch.pacing.tick")
                    .durationType()
                    .defaultValue(Duration.ofMillis(10))
                    .withDescription(
                            "How often a vendor's backlog is served; a vendor may send at most two"
                                    + " ticks' worth at once after being idle.")
                    .withDeprecatedKeys("pacing.tick");

    public static final ConfigOption<Double> PACING_THROTTLE_FACTOR =
            ConfigOptions.key("dispatch.pacing.throttle-factor")
                    .doubleType()
                    .defaultValue(0.5)
                    .withDescription(
                            "A throttling report on vendor.feedback multiplies the vendor's rate"
                                    + " by this (at most once a second).")
                    .withDeprecatedKeys("pacing.throttle-factor");

    public static final ConfigOption<Double> PACING_RECOVERY =
            ConfigOptions.key("dispatch.pacing.recovery-per-second")
                    .doubleType()
                    .defaultValue(0.05)
                    .withDescription(
                            "After a cut, the rate grows back by this fraction of the configured"
                                    + " rate per second, from a second after the last report (or"
                                    + " at once on a recovery report).")
                    .withDeprecatedKeys("pacing.recovery-per-second");

    public static final ConfigOption<Long> PACING_MAX_BACKLOG =
            ConfigOptions.key("dispatch.pacing.max-backlog")
                    .longType()
                    .defaultValue(1_000_000L)
                    .withDescription(
                            "Campaign expansion pauses while any vendor has more sends than this"
                                    + " waiting in the pacer (reported on push.pacing five"
                                    + " times a second); 0 never pauses.")
                    .withDeprecatedKeys("pacing.max-backlog");

    public static final ConfigOption<String> PACING_FEEDBACK_TOPIC =
            ConfigOptions.key("dispatch.pacing.feedback-topic")
                    .stringType()
                    .defaultValue("vendor.feedback")
                    .withDescription("Topic of the vendor gateways' throttling reports.")
                    .withDeprecatedKeys("pacing.feedback-topic");

    public static final ConfigOption<Boolean> REMINDERS_ENABLED =
            ConfigOptions.key("dispatch.reminders.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Read reminder tasks and subscriptions (reminder.tasks,"
                                    + " reminder.subscriptions) and fire each task at its time"
                                    + " through the campaign path. Needs the HBase uid dictionary"
                                    + " (hbase.zookeeper.quorum). Off by default: their partitions"
                                    + " join the input's event time, and with"
                                    + " dispatch.idle-advance 0 an empty one holds it back.");

    public static final ConfigOption<Integer> REMINDERS_RATE =
            ConfigOptions.key("dispatch.reminders.rate")
                    .intType()
                    .defaultValue(1000)
                    .withDescription(
                            "Reminder pushes per second over all tasks together (per whole second"
                                    + " of the epoch); tasks firing together share it in firing"
                                    + " order.");

    public static final ConfigOption<Duration> REMINDERS_METER_DELAY =
            ConfigOptions.key("dispatch.reminders.meter-delay")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "The buffer of the reminder meter, which holds dispatch.reminders.rate"
                                    + " where the sends are written, in time at that rate: a"
                                    + " stall of the stages between the pacer and the meter up to"
                                    + " this long does not show in the written rate, provided"
                                    + " they keep up with the rate on average. A firing reaches"
                                    + " the vendor topics about this much later (up to a second"
                                    + " more: a run begins at a whole second), and the meter's"
                                    + " state holds about rate x delay sends. 0: no meter, the"
                                    + " pacer's rate alone; the stages after it may bunch a"
                                    + " second's sends into the next. At most 60 s.");

    public static final ConfigOption<String> REMINDERS_MSG_TYPE =
            ConfigOptions.key("dispatch.reminders.msg-type")
                    .stringType()
                    .defaultValue("reminder")
                    .withDescription(
                            "msgType of reminder pushes, for the gate's rules (list it in"
                                    + " whitelist.msgTypes so that caps and quiet hours do not"
                                    + " drop a push the user asked for) and for receipts.");

    public static final ConfigOption<Integer> REMINDERS_LEVEL =
            ConfigOptions.key("dispatch.reminders.level")
                    .intType()
                    .defaultValue(2)
                    .withDescription(
                            "Level of reminder pushes: above campaigns (1), below realtime"
                                    + " (dispatch.pacing.realtime-level), so a live-start push"
                                    + " still overtakes a large reminder at the pacer.");

    public static final ConfigOption<Boolean> INBOX_ENABLED =
            ConfigOptions.key("dispatch.inbox.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Write inboxes: requests with \"inbox\": true put their message into"
                                    + " every target uid's inbox (an audience's once, as a"
                                    + " broadcast), and inbox.events marks messages read. Needs"
                                    + " HBase (hbase.zookeeper.quorum); without it there is no"
                                    + " inbox.");

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        return List.of(
                GROUP_ID,
                TRANSACTIONAL_ID_PREFIX,
                MAX_OUT_OF_ORDERNESS,
                MAX_SCHEDULE_AHEAD,
                SCHEDULE_RELEASE_RATE,
                MAX_FUTURE,
                MAX_PAST,
                IDLE_ADVANCE,
                KEEP_RUNNING,
                MAX_PARALLELISM,
                GATE_RULES,
                GATE_STATE_TTL,
                AUDIENCE_CHUNK_SIZE,
                AUDIENCE_LIST_CHUNKING,
                AUDIENCE_MAX_IDS_PER_SECOND,
                AUDIENCE_HOLD_WATERMARK,
                AUDIENCE_TARGET_DELAY,
                PACING_ENABLED,
                PACING_RATES,
                PACING_WEIGHTS,
                PACING_REALTIME_LEVEL,
                PACING_TICK,
                PACING_THROTTLE_FACTOR,
                PACING_RECOVERY,
                PACING_MAX_BACKLOG,
                PACING_FEEDBACK_TOPIC,
                REMINDERS_ENABLED,
                REMINDERS_RATE,
                REMINDERS_METER_DELAY,
                REMINDERS_MSG_TYPE,
                REMINDERS_LEVEL,
                INBOX_ENABLED);
    }

    /** What this job's command line accepts: the common options and its own. */
    public static List<ConfigOption<?>> accepted() {
        List<ConfigOption<?>> own = new java.util.ArrayList<>(own());
        own.addAll(io.pushline.inbox.InboxOptions.all());
        return CommonOptions.with(own);
    }
}
