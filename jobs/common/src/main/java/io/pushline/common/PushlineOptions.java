package io.pushline.common;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Every option a Pushline job reads, declared once with its default and description. Jobs take them
 * as {@code --key value} arguments (see {@link OptionsParser}); the README's option table is
 * printed from here by {@code ./pushline help options}.
 */
public final class PushlineOptions {
    private PushlineOptions() {}

    public static final ConfigOption<String> RECEIPTS_GROUP_ID =
            ConfigOptions.key("receipts.group-id")
                    .stringType()
                    .defaultValue("pushline-receipts")
                    .withDescription(
                            "Consumer group of the receipts job on push.decisions and"
                                    + " push.receipts.");

    public static final ConfigOption<Duration> RECEIPTS_MAX_OUT_OF_ORDERNESS =
            ConfigOptions.key("receipts.max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How far behind the newest event time a decision or receipt may"
                                    + " arrive and still be in its minute's first metrics row.");

    public static final ConfigOption<Duration> RECEIPTS_IDLE_TIMEOUT =
            ConfigOptions.key("receipts.idle-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "A partition without records this long stops holding back event"
                                    + " time (quiet vendors, no decisions at night).");

    public static final ConfigOption<Duration> RECEIPTS_ALLOWED_LATENESS =
            ConfigOptions.key("receipts.allowed-lateness")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "How long after its period a metrics row still takes late counts"
                                    + " (and is written again); later ones go to push.dlq with"
                                    + " the reason. Lifecycle rows take late receipts always.");

    public static final ConfigOption<Duration> RECEIPTS_DECISION_WAIT =
            ConfigOptions.key("receipts.decision-wait")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "How long (event time) a receipt waits for its decision, whose"
                                    + " msgType it is counted under; after that it counts as"
                                    + " msgType 'unknown'.");

    public static final ConfigOption<Duration> RECEIPTS_STATE_TTL =
            ConfigOptions.key("receipts.state-ttl")
                    .durationType()
                    .defaultValue(Duration.ofDays(3))
                    .withDescription(
                            "How long a message's lifecycle stays in state after its last"
                                    + " change (processing time); a receipt later than this"
                                    + " would count again. Must exceed how late vendors report.");

    public static final ConfigOption<String> KAFKA_BOOTSTRAP =
            ConfigOptions.key("kafka.bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Kafka bootstrap servers, host:port[,host:port...].");

    public static final ConfigOption<String> KAFKA_GROUP_ID =
            ConfigOptions.key("kafka.group-id")
                    .stringType()
                    .defaultValue("pushline-dispatch")
                    .withDescription("Consumer group id under which the source commits offsets.");

    public static final ConfigOption<String> KAFKA_STARTING_OFFSETS =
            ConfigOptions.key("kafka.starting-offsets")
                    .stringType()
                    .defaultValue("committed")
                    .withDescription(
                            "Where to start without a checkpoint: earliest, latest, or committed"
                                    + " (the group's offsets, earliest where it has none).");

    public static final ConfigOption<Boolean> KAFKA_BOUNDED =
            ConfigOptions.key("kafka.bounded")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Stop at the offsets that were latest when the job started: a"
                                    + " catch-up run that finishes (used by the demo).");

    public static final ConfigOption<String> KAFKA_TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("kafka.transactional-id-prefix")
                    .stringType()
                    .defaultValue("pushline-dispatch")
                    .withDescription(
                            "Prefix of the exactly-once sinks' transactional ids; unique per job"
                                    + " on one Kafka cluster.");

    public static final ConfigOption<Duration> KAFKA_TRANSACTION_TIMEOUT =
            ConfigOptions.key("kafka.transaction-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "transaction.timeout.ms of the exactly-once producers; must exceed"
                                    + " the checkpoint interval and stay under the broker's"
                                    + " transaction.max.timeout.ms.");

    public static final ConfigOption<String> HBASE_ZK_QUORUM =
            ConfigOptions.key("hbase.zookeeper.quorum")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "ZooKeeper quorum of the HBase cluster, host:port[,host:port...]."
                                    + " Without it the registry is not mirrored to HBase.");

    public static final ConfigOption<String> HBASE_NAMESPACE =
            ConfigOptions.key("hbase.namespace")
                    .stringType()
                    .defaultValue("pushline")
                    .withDescription("HBase namespace of Pushline's tables.");

    public static final ConfigOption<Boolean> HBASE_CREATE_TABLES =
            ConfigOptions.key("hbase.create-tables")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Create missing namespace and tables at start-up.");

    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS =
            ConfigOptions.key("dispatch.max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "How far behind the newest event time an input record may arrive"
                                    + " and still be decided in time order; also the least"
                                    + " latency the dispatch job adds.");

    public static final ConfigOption<Duration> MAX_SCHEDULE_AHEAD =
            ConfigOptions.key("dispatch.max-schedule-ahead")
                    .durationType()
                    .defaultValue(Duration.ofDays(2))
                    .withDescription(
                            "A request's 'at' may be at most this long after its 'ts'; the"
                                    + " request waits in the scheduler's state until then."
                                    + " Further ahead is a dead letter.");

    public static final ConfigOption<Duration> IDLE_ADVANCE =
            ConfigOptions.key("dispatch.idle-advance")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "After this long without input on a partition (time under"
                                    + " backpressure does not count), its watermark follows the"
                                    + " wall clock, so the last requests do not wait for newer"
                                    + " ones. 0 turns it off (replays of old data).");

    public static final ConfigOption<Integer> MAX_PARALLELISM =
            ConfigOptions.key("dispatch.max-parallelism")
                    .intType()
                    .defaultValue(720)
                    .withDescription(
                            "Maximum parallelism (key groups) of every keyed operator; fixed for"
                                    + " the life of the job's state.");

    public static final ConfigOption<String> GATE_RULES =
            ConfigOptions.key("gate.rules")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Path of the gate's rules file (YAML or JSON, as in"
                                    + " docs/dispatch-gate.md) in force at start; later versions"
                                    + " arrive on push.rules. Without it every filter is off"
                                    + " until push.rules brings rules.");

    public static final ConfigOption<Duration> GATE_STATE_TTL =
            ConfigOptions.key("gate.state-ttl")
                    .durationType()
                    .defaultValue(Duration.ofDays(8))
                    .withDescription(
                            "How long the gate keeps the memory of a device nobody pushed to"
                                    + " (processing time). Rules that look back further are"
                                    + " refused, so expiry never changes a decision.");

    public static final ConfigOption<Integer> HBASE_DICTIONARY_CACHE =
            ConfigOptions.key("hbase.dictionary-cache")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "Entries each subtask caches of the uid dictionary (uid to id and"
                                    + " back).");

    public static final ConfigOption<Integer> AUDIENCE_CHUNK_SIZE =
            ConfigOptions.key("audience.chunk-size")
                    .intType()
                    .defaultValue(5_000)
                    .withDescription(
                            "Ids per chunk when a campaign's audience is expanded; chunks are"
                                    + " spread over the parallel subtasks and are the unit of"
                                    + " checkpointed progress.");

    public static final ConfigOption<Long> AUDIENCE_MAX_IDS_PER_SECOND =
            ConfigOptions.key("audience.max-ids-per-second")
                    .longType()
                    .defaultValue(0L)
                    .withDescription(
                            "Upper bound on how fast campaigns are expanded, in ids per second;"
                                    + " 0 for none (backpressure alone paces the expansion).");

    public static final ConfigOption<String> SEGMENTS_FILES =
            ConfigOptions.key("segments.files")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Folder of user-package files for the segment build: NAME.txt per"
                                    + " segment (subfolders for names with '/'), one uid per line."
                                    + " Each file replaces its segment's membership.");

    public static final ConfigOption<String> SEGMENTS_CHANGES_TOPIC =
            ConfigOptions.key("segments.changes-topic")
                    .stringType()
                    .defaultValue("segment.changes")
                    .withDescription(
                            "Topic of membership changes the segment build applies on top of"
                                    + " each segment's last version; empty to read none.");

    public static final ConfigOption<String> SEGMENTS_GROUP_ID =
            ConfigOptions.key("segments.group-id")
                    .stringType()
                    .defaultValue("pushline-segments")
                    .withDescription(
                            "Consumer group whose offsets mark the changes already built; a"
                                    + " build commits them when it succeeds.");

    public static final ConfigOption<Boolean> PACING_ENABLED =
            ConfigOptions.key("pacing.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Pace sends per vendor (rate over all subtasks, weighted levels);"
                                    + " false sends each PASS at once, for tests and replays.");

    public static final ConfigOption<Map<String, String>> PACING_RATES =
            ConfigOptions.key("pacing.rates")
                    .mapType()
                    .defaultValue(Map.of())
                    .withDescription(
                            "Messages per second per vendor, e.g. fcm:8000,xiaomi:1500; unlisted"
                                    + " vendors keep their defaults (apns 10000, fcm 10000, huawei"
                                    + " 3000, honor 3000, xiaomi 500, oppo 5000, vivo 3000,"
                                    + " longconn 20000). A rules document's pacing section"
                                    + " overrides this while the job runs.");

    public static final ConfigOption<Map<String, String>> PACING_WEIGHTS =
            ConfigOptions.key("pacing.weights")
                    .mapType()
                    .defaultValue(Map.of())
                    .withDescription(
                            "Weight per level (0-15), e.g. 0:1,1:3; unlisted levels weigh"
                                    + " 2^level. Levels that wait share a vendor's rate by weight.");

    public static final ConfigOption<Integer> PACING_REALTIME_LEVEL =
            ConfigOptions.key("pacing.realtime-level")
                    .intType()
                    .defaultValue(3)
                    .withDescription(
                            "Levels at or above this go out at the next token, ahead of any bulk"
                                    + " backlog (16: none).");

    public static final ConfigOption<Duration> PACING_TICK =
            ConfigOptions.key("pacing.tick")
                    .durationType()
                    .defaultValue(Duration.ofMillis(10))
                    .withDescription(
                            "How often a vendor's backlog is served; a vendor may send at most two"
                                    + " ticks' worth at once after being idle.");

    public static final ConfigOption<Double> PACING_THROTTLE_FACTOR =
            ConfigOptions.key("pacing.throttle-factor")
                    .doubleType()
                    .defaultValue(0.5)
                    .withDescription(
                            "A throttling report on vendor.feedback multiplies the vendor's rate"
                                    + " by this (at most once a second).");

    public static final ConfigOption<Double> PACING_RECOVERY =
            ConfigOptions.key("pacing.recovery-per-second")
                    .doubleType()
                    .defaultValue(0.05)
                    .withDescription(
                            "After a cut, the rate grows back by this fraction of the configured"
                                    + " rate per second, from a second after the last report (or"
                                    + " at once on a recovery report).");

    public static final ConfigOption<Long> PACING_MAX_BACKLOG =
            ConfigOptions.key("pacing.max-backlog")
                    .longType()
                    .defaultValue(1_000_000L)
                    .withDescription(
                            "Campaign expansion pauses while any vendor has more sends than this"
                                    + " waiting in the pacer (reported on push.pacing every"
                                    + " second); 0 never pauses.");

    public static final ConfigOption<Boolean> AUDIENCE_HOLD_WATERMARK =
            ConfigOptions.key("audience.hold-watermark")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "true: a campaign is decided at its request's time and event time"
                                    + " waits for its last chunk (replay's exact order; pushes"
                                    + " after it wait too). false: each chunk is decided when it"
                                    + " is expanded (request time or the watermark, the later),"
                                    + " so realtime pushes never wait for a campaign.");

    public static final ConfigOption<String> PACING_FEEDBACK_TOPIC =
            ConfigOptions.key("pacing.feedback-topic")
                    .stringType()
                    .defaultValue("vendor.feedback")
                    .withDescription("Topic of the vendor gateways' throttling reports.");

    public static final ConfigOption<String> SENDTIME_ACTIVITY =
            ConfigOptions.key("sendtime.activity")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Activity for the send-time job (docs/send-time.md's JSON lines): a file, or"
                                    + " a folder whose files are all read; local or any Flink file"
                                    + " system (s3://, hdfs://).");

    public static final ConfigOption<String> SENDTIME_DATE =
            ConfigOptions.key("sendtime.date")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The run's date, YYYY-MM-DD: the look-back days are the ones before it."
                                    + " Default: today in the rules' timezone.");

    public static final ConfigOption<String> SENDTIME_ACTIVITY_TOPIC =
            ConfigOptions.key("sendtime.activity-topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Read activity from this Kafka topic (e.g. user.activity) instead of"
                                    + " sendtime.activity: the records from the start of the"
                                    + " look-back (by record timestamp, a day early for zones) up"
                                    + " to the offsets that are latest when the job starts.");

    public static final ConfigOption<String> SENDTIME_RULES =
            ConfigOptions.key("sendtime.rules")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Rules file replacing docs/send-time.md's default rules (YAML).");

    public static final ConfigOption<String> SENDTIME_PREDICTOR =
            ConfigOptions.key("sendtime.predictor")
                    .stringType()
                    .defaultValue("rules")
                    .withDescription(
                            "rules (docs/send-time.md's window rules) or histogram (decay-weighted"
                                    + " median of each day's first and last activity).");

    public static final ConfigOption<String> RECALL_DATA =
            ConfigOptions.key("recall.data")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Folder of the recall job's input (users.jsonl, history.jsonl,"
                                    + " materials.jsonl, as ./pushline gen writes them); local or"
                                    + " any Flink file system.");

    public static final ConfigOption<String> RECALL_DATE =
            ConfigOptions.key("recall.date")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("The day recalled for, YYYY-MM-DD. Default: today (UTC).");

    public static final ConfigOption<Integer> RECALL_K =
            ConfigOptions.key("recall.k")
                    .intType()
                    .defaultValue(5)
                    .withDescription("Items recalled per user.");

    public static final ConfigOption<Integer> RECALL_PUSHED_DAYS =
            ConfigOptions.key("recall.pushed-days")
                    .intType()
                    .defaultValue(7)
                    .withDescription("Items pushed to the user in this many days are left out.");

    public static final ConfigOption<String> SCHEDULE_DATE =
            ConfigOptions.key("schedule.date")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The nightly job's day, YYYY-MM-DD: send time, recall and the"
                                    + " personal slots are for it (sendtime.date and recall.date"
                                    + " are not used). Default: tomorrow in the send-time rules'"
                                    + " zone.");

    public static final ConfigOption<Duration> SCHEDULE_LEAD =
            ConfigOptions.key("schedule.lead")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(30))
                    .withDescription(
                            "How long before its slot a personal push enters the dispatch job"
                                    + " (its 'ts'); it waits there in the scheduler until the slot"
                                    + " ('at').");

    public static final ConfigOption<Duration> SCHEDULE_DEADLINE =
            ConfigOptions.key("schedule.deadline")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "A personal push still waiting for its vendor this long after its"
                                    + " slot is dropped as expired. 0: no deadline.");

    public static final ConfigOption<String> SCHEDULE_FEED_FROM =
            ConfigOptions.key("schedule.feed-from")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "First slot minute the feed loads: an ISO instant"
                                    + " (2026-11-23T00:00:00Z) or a date (its UTC midnight)."
                                    + " Default: the minute starting schedule.lead from now. On a"
                                    + " restart from a checkpoint the feed goes on where it was.");

    public static final ConfigOption<String> SCHEDULE_FEED_UNTIL =
            ConfigOptions.key("schedule.feed-until")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Slot minute (exclusive) where the feed stops, same forms as"
                                    + " schedule.feed-from. Default: none (runs until cancelled).");

    public static final ConfigOption<Boolean> SCHEDULE_FEED_FOLLOW_CLOCK =
            ConfigOptions.key("schedule.feed-follow-clock")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Load each minute's slots schedule.lead before the minute by the wall"
                                    + " clock. false: load the whole range at once (backfills,"
                                    + " tests; the dispatch job's scheduler still holds each"
                                    + " push until its slot in event time).");

    public static List<ConfigOption<?>> all() {
        return List.of(
                KAFKA_BOOTSTRAP,
                KAFKA_GROUP_ID,
                KAFKA_STARTING_OFFSETS,
                KAFKA_BOUNDED,
                KAFKA_TRANSACTIONAL_ID_PREFIX,
                KAFKA_TRANSACTION_TIMEOUT,
                HBASE_ZK_QUORUM,
                HBASE_NAMESPACE,
                HBASE_CREATE_TABLES,
                HBASE_DICTIONARY_CACHE,
                AUDIENCE_CHUNK_SIZE,
                AUDIENCE_MAX_IDS_PER_SECOND,
                SEGMENTS_FILES,
                SEGMENTS_CHANGES_TOPIC,
                SEGMENTS_GROUP_ID,
                MAX_OUT_OF_ORDERNESS,
                IDLE_ADVANCE,
                MAX_SCHEDULE_AHEAD,
                MAX_PARALLELISM,
                GATE_RULES,
                GATE_STATE_TTL,
                PACING_ENABLED,
                PACING_RATES,
                PACING_WEIGHTS,
                PACING_REALTIME_LEVEL,
                PACING_TICK,
                PACING_THROTTLE_FACTOR,
                PACING_RECOVERY,
                PACING_MAX_BACKLOG,
                PACING_FEEDBACK_TOPIC,
                AUDIENCE_HOLD_WATERMARK,
                SENDTIME_ACTIVITY,
                SENDTIME_ACTIVITY_TOPIC,
                SENDTIME_DATE,
                SENDTIME_RULES,
                SENDTIME_PREDICTOR,
                RECALL_DATA,
                RECALL_DATE,
                RECALL_K,
                RECALL_PUSHED_DAYS,
                SCHEDULE_DATE,
                SCHEDULE_LEAD,
                SCHEDULE_DEADLINE,
                SCHEDULE_FEED_FROM,
                SCHEDULE_FEED_UNTIL,
                SCHEDULE_FEED_FOLLOW_CLOCK,
                RECEIPTS_GROUP_ID,
                RECEIPTS_MAX_OUT_OF_ORDERNESS,
                RECEIPTS_IDLE_TIMEOUT,
                RECEIPTS_ALLOWED_LATENESS,
                RECEIPTS_DECISION_WAIT,
                RECEIPTS_STATE_TTL);
    }
}
