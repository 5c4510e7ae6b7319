package io.pushline.schema;

import java.time.Duration;
import org.apache.flink.api.common.state.StateTtlConfig;

/**
 * The one TTL Pushline's keyed state uses: processing time, renewed on every write, expired values
 * never returned, dropped by RocksDB's compaction filter. It only collects garbage (keys never
 * heard of again); event-time logic decides everything else.
 */
public final class StateTtl {
    private StateTtl() {}

    public static StateTtlConfig garbageOnly(Duration ttl) {
        return garbageOnly(ttl, 1000);
    }

    /**
     * @param queriesBetweenTimeChecks entries the compaction filter reads before it asks for the
     *     current time again
     */
    public static StateTtlConfig garbageOnly(Duration ttl, long queriesBetweenTimeChecks) {
        return StateTtlConfig.newBuilder(ttl)
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .cleanupInRocksdbCompactFilter(queriesBetweenTimeChecks)
                .build();
    }
}
