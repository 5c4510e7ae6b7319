package io.pushline.receipts;

import io.pushline.common.CommonOptions;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The receipts job's options, all under {@code receipts.}. */
public final class ReceiptsOptions {
    private ReceiptsOptions() {}

    public static final ConfigOption<String> GROUP_ID =
            ConfigOptions.key("receipts.group-id")
                    .stringType()
                    .defaultValue("pushline-receipts")
                    .withDescription(
                            "Consumer group of the receipts job on push.decisions and"
                                    + " push.receipts.");

    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS =
            ConfigOptions.key("receipts.max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How far behind the newest event time a decision or receipt may"
                                    + " arrive and still be in its minute's first metrics row.");

    public static final ConfigOption<Duration> IDLE_TIMEOUT =
            ConfigOptions.key("receipts.idle-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "A partition without records this long stops holding back event"
                                    + " time (quiet vendors, no decisions at night).");

    public static final ConfigOption<Duration> ALLOWED_LATENESS =
            ConfigOptions.key("receipts.allowed-lateness")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "How long after its period a metrics row still takes late counts"
                                    + " (and is written again); later ones go to push.dlq with"
                                    + " the reason. Lifecycle rows take late receipts always.");

    public static final ConfigOption<Duration> DECISION_WAIT =
            ConfigOptions.key("receipts.decision-wait")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "How long (event time) a receipt waits for its decision, whose"
                                    + " msgType it is counted under; after that it counts as"
                                    + " msgType 'unknown'.");

    public static final ConfigOption<Duration> STATE_TTL =
            ConfigOptions.key("receipts.state-ttl")
                    .durationType()
                    .defaultValue(Duration.ofDays(3))
                    .withDescription(
                            "How long a message's lifecycle stays in state after its last"
                                    + " change (processing time); a receipt later than this"
                                    + " would count again. Must exceed how late vendors report.");

    public static final ConfigOption<Integer> MAX_PARALLELISM =
            ConfigOptions.key("receipts.max-parallelism")
                    .intType()
                    .defaultValue(720)
                    .withDescription(
                            "Maximum parallelism (key groups) of every keyed operator; fixed for"
                                    + " the life of the job's state.");

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        return List.of(
                GROUP_ID,
                MAX_OUT_OF_ORDERNESS,
                IDLE_TIMEOUT,
                ALLOWED_LATENESS,
                DECISION_WAIT,
                STATE_TTL,
                MAX_PARALLELISM);
    }

    /** What this job's command line accepts: the common options and its own. */
    public static List<ConfigOption<?>> accepted() {
        return CommonOptions.with(own());
    }
}
