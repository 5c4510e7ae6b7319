package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.common.PushlineOptions;
import io.pushline.common.StoreAudiences;
import java.io.Serializable;
import org.apache.flink.configuration.Configuration;

/** How campaigns are expanded: where audiences come from, chunk size and rate. */
public final class AudienceSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Null when the job has no segment store: audience targets are then dead letters. */
    final Audiences.Factory audiences;

    final int chunkSize;
    final long maxIdsPerSecond;

    public AudienceSettings(Audiences.Factory audiences, int chunkSize, long maxIdsPerSecond) {
        this.audiences = audiences;
        this.chunkSize = chunkSize;
        this.maxIdsPerSecond = maxIdsPerSecond;
    }

    /** Without a segment store. */
    public static AudienceSettings none() {
        return new AudienceSettings(null, PushlineOptions.AUDIENCE_CHUNK_SIZE.defaultValue(), 0);
    }

    /**
     * From {@code audience.*} and, for the store, {@code hbase.*}.
     *
     * @throws IllegalArgumentException naming the option when a value is out of range
     */
    public static AudienceSettings from(Configuration options) {
        int chunk = options.get(PushlineOptions.AUDIENCE_CHUNK_SIZE);
        if (chunk < 1) {
            throw new IllegalArgumentException(
                    "option '"
                            + PushlineOptions.AUDIENCE_CHUNK_SIZE.key()
                            + "' must be at least 1, got "
                            + chunk);
        }
        long rate = options.get(PushlineOptions.AUDIENCE_MAX_IDS_PER_SECOND);
        if (rate < 0) {
            throw new IllegalArgumentException(
                    "option '"
                            + PushlineOptions.AUDIENCE_MAX_IDS_PER_SECOND.key()
                            + "' must be 0 (no limit) or positive, got "
                            + rate);
        }
        int cache = options.get(PushlineOptions.HBASE_DICTIONARY_CACHE);
        if (cache < 0) {
            throw new IllegalArgumentException(
                    "option '"
                            + PushlineOptions.HBASE_DICTIONARY_CACHE.key()
                            + "' must not be negative, got "
                            + cache);
        }
        String quorum = options.get(PushlineOptions.HBASE_ZK_QUORUM);
        Audiences.Factory store =
                quorum == null || quorum.isBlank()
                        ? null
                        : StoreAudiences.factory(
                                quorum, options.get(PushlineOptions.HBASE_NAMESPACE), cache);
        return new AudienceSettings(store, chunk, rate);
    }
}
