package io.pushline.inbox;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Options of the inbox, read by the dispatch job (its writer) and by pushline serve. */
public final class InboxOptions {
    private InboxOptions() {}

    public static final ConfigOption<Duration> RETENTION =
            ConfigOptions.key("inbox.retention")
                    .durationType()
                    .defaultValue(Duration.ofDays(90))
                    .withDescription(
                            "Messages older than this (by their request's ts) leave every inbox;"
                                    + " their ids are dropped from the inboxes' bitmaps as they"
                                    + " change, and HBase expires their rows.");

    public static List<ConfigOption<?>> all() {
        return List.of(RETENTION);
    }

    /**
     * The retention of {@code options}, checked: positive.
     *
     * @throws io.pushline.common.OptionsParser.InvalidOptionException naming the option otherwise
     */
    public static Duration retention(org.apache.flink.configuration.Configuration options) {
        Duration d = options.get(RETENTION);
        if (d.isNegative() || d.isZero()) {
            throw new io.pushline.common.OptionsParser.InvalidOptionException(
                    "option '" + RETENTION.key() + "' must be positive, got " + d);
        }
        return d;
    }
}
