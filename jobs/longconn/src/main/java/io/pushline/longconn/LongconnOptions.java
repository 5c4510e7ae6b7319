package io.pushline.longconn;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.udf.RulesException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/** The long-connection job's options, all under {@code longconn.}. */
public final class LongconnOptions {
    private LongconnOptions() {}

    public static final ConfigOption<String> RULES =
            ConfigOptions.key("longconn.rules")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Path of the ack tracker's rules.yaml (probeDelay, probeTries, step,"
                                    + " maxDelay, minAckVersion), read when the job starts; the"
                                    + " same file 'pushline longconn replay --rules' takes. Unset:"
                                    + " every rule at its default (10s, 4, 10s, 120s, 7.0.0).");

    public static final ConfigOption<String> GROUP_ID =
            ConfigOptions.key("longconn.group-id")
                    .stringType()
                    .defaultValue("pushline-longconn")
                    .withDescription(
                            "Consumer group of the long-connection job on push.vendor.longconn,"
                                    + " longconn.acks and longconn.presence.");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("longconn.transactional-id-prefix")
                    .stringType()
                    .defaultValue("pushline-longconn")
                    .withDescription(
                            "Prefix of the Kafka transactional ids of the job's exactly-once"
                                    + " sinks; unique per job on one Kafka cluster.");

    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS =
            ConfigOptions.key("longconn.max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "How far behind the newest event time a send, ack or presence may"
                                    + " arrive and still be handled in time order; retries come"
                                    + " due this much late at least.");

    public static final ConfigOption<Duration> IDLE_ADVANCE =
            ConfigOptions.key("longconn.idle-advance")
                    .durationType()
                    .defaultValue(Duration.ofMillis(500))
                    .withDescription(
                            "After this long without input on a partition read to its end, its"
                                    + " watermark follows the wall clock, so retries come due"
                                    + " when nothing else happens.");

    public static final ConfigOption<Duration> MAX_FUTURE =
            ConfigOptions.key("longconn.max-future")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "An ack or presence whose 'ts' is more than this ahead of the wall"
                                    + " clock (a client's wrong clock) is a dead letter. 0 turns"
                                    + " the check off.");

    public static final ConfigOption<Duration> STATE_TTL =
            ConfigOptions.key("longconn.state-ttl")
                    .durationType()
                    .defaultValue(Duration.ofDays(30))
                    .withDescription(
                            "How long a device's state (presence, app version, learned delay,"
                                    + " tracked messages) stays after its last change (processing"
                                    + " time): garbage collection of devices never heard of again;"
                                    + " the rules end every tracking. Must exceed the rules'"
                                    + " longest tracking (checked at start).");

    public static final ConfigOption<Integer> MAX_PARALLELISM =
            ConfigOptions.key("longconn.max-parallelism")
                    .intType()
                    .defaultValue(720)
                    .withDescription(
                            "Maximum parallelism (key groups) of the keyed tracker; fixed for the"
                                    + " life of the job's state.");

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        return List.of(
                RULES,
                GROUP_ID,
                TRANSACTIONAL_ID_PREFIX,
                MAX_OUT_OF_ORDERNESS,
                IDLE_ADVANCE,
                MAX_FUTURE,
                STATE_TTL,
                MAX_PARALLELISM);
    }

    /** What this job's command line accepts: the common options and its own. */
    public static List<ConfigOption<?>> accepted() {
        return CommonOptions.with(own());
    }

    /**
     * The rules the options name, checked against the tracked state's TTL.
     *
     * @throws OptionsParser.InvalidOptionException naming the key
     */
    public static AckRules rules(Configuration options) {
        String path = options.get(RULES);
        AckRules rules;
        if (path == null || path.isBlank()) {
            rules = AckRules.defaults();
        } else {
            try {
                rules = AckRules.parse(Files.readString(Path.of(path), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new OptionsParser.InvalidOptionException(
                        RULES.key() + ": cannot read " + path + " (" + e + ")");
            } catch (RulesException e) {
                throw new OptionsParser.InvalidOptionException(
                        RULES.key() + ": " + path + ": " + e.getMessage());
            }
        }
        long longest = rules.longestTrackingMs();
        if (options.get(STATE_TTL).toMillis() <= longest) {
            throw new OptionsParser.InvalidOptionException(
                    STATE_TTL.key()
                            + ": must exceed the rules' longest tracking of a message, "
                            + Duration.ofMillis(longest)
                            + " (a message would lose its retries)");
        }
        return rules;
    }
}
