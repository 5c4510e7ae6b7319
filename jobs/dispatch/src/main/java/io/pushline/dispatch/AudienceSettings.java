package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.audience.StoreAudiences;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import java.io.Serializable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/** How campaigns are expanded: where audiences come from, chunk size and rate. */
public final class AudienceSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Null when the job has no segment store: audience targets are then dead letters. */
    final Audiences.Factory audiences;

    final int chunkSize;
    final long maxIdsPerSecond;
    final boolean holdWatermark;
    final long targetDelayMs;

    /** Lists longer than this go through the expander; set by {@link #from}. */
    int chunkListsOver = DispatchOptions.AUDIENCE_LIST_CHUNKING.defaultValue();

    /** Scheduled requests released a second once due; 0 for all at once (with the hold). */
    int releaseRate;

    public AudienceSettings(Audiences.Factory audiences, int chunkSize, long maxIdsPerSecond) {
        this(audiences, chunkSize, maxIdsPerSecond, true);
    }

    public AudienceSettings(
            Audiences.Factory audiences,
            int chunkSize,
            long maxIdsPerSecond,
            boolean holdWatermark) {
        this(audiences, chunkSize, maxIdsPerSecond, holdWatermark, 0);
    }

    public AudienceSettings(
            Audiences.Factory audiences,
            int chunkSize,
            long maxIdsPerSecond,
            boolean holdWatermark,
            long targetDelayMs) {
        this.audiences = audiences;
        this.chunkSize = chunkSize;
        this.maxIdsPerSecond = maxIdsPerSecond;
        this.holdWatermark = holdWatermark;
        this.targetDelayMs = targetDelayMs;
    }

    /** Without a segment store. */
    public static AudienceSettings none() {
        return new AudienceSettings(null, DispatchOptions.AUDIENCE_CHUNK_SIZE.defaultValue(), 0);
    }

    /**
     * From {@code audience.*} and, for the store, {@code hbase.*}.
     *
     * @throws IllegalArgumentException naming the option when a value is out of range
     */
    public static AudienceSettings from(Configuration options) {
        int chunk = atLeast(options, DispatchOptions.AUDIENCE_CHUNK_SIZE, 1).intValue();
        long rate = atLeast(options, DispatchOptions.AUDIENCE_MAX_IDS_PER_SECOND, 0).longValue();
        int cache = atLeast(options, CommonOptions.HBASE_DICTIONARY_CACHE, 0).intValue();
        String quorum = HBaseTables.address(options);
        Audiences.Factory store =
                quorum == null || quorum.isBlank()
                        ? null
                        : StoreAudiences.factory(
                                quorum, options.get(CommonOptions.HBASE_NAMESPACE), cache);
        long target = options.get(DispatchOptions.AUDIENCE_TARGET_DELAY).toMillis();
        if (target < 0) {
            throw new IllegalArgumentException(
                    "option '"
                            + DispatchOptions.AUDIENCE_TARGET_DELAY.key()
                            + "' must not be negative, got "
                            + options.get(DispatchOptions.AUDIENCE_TARGET_DELAY));
        }
        AudienceSettings settings =
                new AudienceSettings(
                        store,
                        chunk,
                        rate,
                        options.get(DispatchOptions.AUDIENCE_HOLD_WATERMARK),
                        target);
        settings.chunkListsOver =
                atLeast(options, DispatchOptions.AUDIENCE_LIST_CHUNKING, 0).intValue();
        int release = atLeast(options, DispatchOptions.SCHEDULE_RELEASE_RATE, 0).intValue();
        settings.releaseRate = settings.holdWatermark ? 0 : release;
        return settings;
    }

    /**
     * The queue in front of the vendor pacers that the reminder pacer and the scheduler's release
     * aim at: the target delay with live traffic (hold-watermark false) and pacing on, whose pacers
     * are the ones that report; 0 (no adaptive rate) otherwise.
     */
    long backlogTargetMs(PacingSettings pacing) {
        return pacing == null || holdWatermark ? 0 : targetDelayMs;
    }

    private static <T extends Number> T atLeast(
            Configuration options, ConfigOption<T> option, long min) {
        T value = options.get(option);
        if (value.longValue() < min) {
            throw new IllegalArgumentException(
                    "option '" + option.key() + "' must be at least " + min + ", got " + value);
        }
        return value;
    }
}
