package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.UidKeyed;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

/**
 * Maps a chunk of a campaign's dense ids back to uids (one batched dictionary read per chunk) and
 * hands each uid to the uid index like any uid-targeted request. Runs at full parallelism: chunks
 * arrive round-robin, so a large campaign's lookups are spread over all subtasks.
 */
public class ChunkResolver extends RichFlatMapFunction<AudienceChunk, UidKeyed> {
    private static final long serialVersionUID = 1L;

    private final Audiences.Factory factory;
    private transient Audiences audiences;
    private transient Counter resolved;
    private transient Counter unassigned;

    public ChunkResolver(Audiences.Factory factory) {
        this.factory = factory;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        audiences = factory.open();
        resolved = getRuntimeContext().getMetricGroup().counter("audienceUids");
        // Ids a writer claimed but lost in a race have no uid: part of the universe, nobody's.
        unassigned = getRuntimeContext().getMetricGroup().counter("audienceIdsWithoutUid");
    }

    @Override
    public void flatMap(AudienceChunk chunk, Collector<UidKeyed> out) throws Exception {
        String[] uids = audiences.uids(chunk.ids);
        for (String uid : uids) {
            if (uid == null) {
                unassigned.inc();
            } else {
                resolved.inc();
                out.collect(UidKeyed.request(uid, chunk.request));
            }
        }
    }

    @Override
    public void close() throws Exception {
        if (audiences != null) {
            audiences.close();
        }
    }
}
