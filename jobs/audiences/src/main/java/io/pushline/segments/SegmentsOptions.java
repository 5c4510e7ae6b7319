package io.pushline.segments;

import io.pushline.common.CommonOptions;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The segment build job's options, all under {@code segments.}. */
public final class SegmentsOptions {
    private SegmentsOptions() {}

    public static final ConfigOption<String> FILES =
            ConfigOptions.key("segments.files")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Folder of user-package files for the segment build: NAME.txt per"
                                    + " segment (subfolders for names with '/'), one uid per line."
                                    + " Each file replaces its segment's membership.");

    public static final ConfigOption<String> CHANGES_TOPIC =
            ConfigOptions.key("segments.changes-topic")
                    .stringType()
                    .defaultValue("segment.changes")
                    .withDescription(
                            "Topic of membership changes the segment build applies on top of"
                                    + " each segment's last version; empty to read none.");

    public static final ConfigOption<String> GROUP_ID =
            ConfigOptions.key("segments.group-id")
                    .stringType()
                    .defaultValue("pushline-segments")
                    .withDescription(
                            "Consumer group whose offsets mark the changes already built; a"
                                    + " build commits them when it succeeds.");

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        return List.of(FILES, CHANGES_TOPIC, GROUP_ID);
    }

    /** What this job's command line accepts: the common options and its own. */
    public static List<ConfigOption<?>> accepted() {
        return CommonOptions.with(own());
    }
}
