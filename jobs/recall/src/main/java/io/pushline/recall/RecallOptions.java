package io.pushline.recall;

import io.pushline.common.CommonOptions;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The recall job's options, all under {@code recall.}. */
public final class RecallOptions {
    private RecallOptions() {}

    public static final ConfigOption<String> DATA =
            ConfigOptions.key("recall.data")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Folder of the recall job's input (users.jsonl, history.jsonl,"
                                    + " materials.jsonl, as ./pushline gen writes them); local or"
                                    + " any Flink file system.");

    public static final ConfigOption<String> DATE =
            ConfigOptions.key("recall.date")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("The day recalled for, YYYY-MM-DD. Default: today (UTC).");

    public static final ConfigOption<Integer> K =
            ConfigOptions.key("recall.k")
                    .intType()
                    .defaultValue(5)
                    .withDescription("Items recalled per user.");

    public static final ConfigOption<Integer> PUSHED_DAYS =
            ConfigOptions.key("recall.pushed-days")
                    .intType()
                    .defaultValue(7)
                    .withDescription("Items pushed to the user in this many days are left out.");

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        return List.of(DATA, DATE, K, PUSHED_DAYS);
    }

    /** What this job's command line accepts: the common options and its own. */
    public static List<ConfigOption<?>> accepted() {
        return CommonOptions.with(own());
    }
}
