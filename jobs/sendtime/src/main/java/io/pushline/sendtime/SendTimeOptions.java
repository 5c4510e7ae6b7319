package io.pushline.sendtime;

import io.pushline.common.CommonOptions;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The send-time job's options, all under {@code sendtime.}. */
public final class SendTimeOptions {
    private SendTimeOptions() {}

    public static final ConfigOption<String> ACTIVITY =
            ConfigOptions.key("sendtime.activity")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Activity for the send-time job (docs/send-time.md's JSON lines): a file, or"
                                    + " a folder whose files are all read; local or any Flink file"
                                    + " system (s3://, hdfs://).");

    public static final ConfigOption<String> ACTIVITY_TOPIC =
            ConfigOptions.key("sendtime.activity-topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Read activity from this Kafka topic (e.g. user.activity) instead of"
                                    + " sendtime.activity: the records from the start of the"
                                    + " look-back (by record timestamp, a day early for zones) up"
                                    + " to the offsets that are latest when the job starts.");

    public static final ConfigOption<String> DATE =
            ConfigOptions.key("sendtime.date")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The run's date, YYYY-MM-DD: the look-back days are the ones before it."
                                    + " Default: today in the rules' timezone.");

    public static final ConfigOption<String> RULES =
            ConfigOptions.key("sendtime.rules")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Rules file replacing docs/send-time.md's default rules (YAML).");

    public static final ConfigOption<SendTimeJob.Predictor> PREDICTOR =
            ConfigOptions.key("sendtime.predictor")
                    .enumType(SendTimeJob.Predictor.class)
                    .defaultValue(SendTimeJob.Predictor.RULES)
                    .withDescription(
                            "rules (docs/send-time.md's window rules) or histogram (decay-weighted"
                                    + " median of each day's first and last activity).");

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        return List.of(ACTIVITY, ACTIVITY_TOPIC, DATE, RULES, PREDICTOR);
    }

    /** What this job's command line accepts: the common options and its own. */
    public static List<ConfigOption<?>> accepted() {
        return CommonOptions.with(own());
    }
}
