package io.pushline.segments;

import io.pushline.audience.IdDictionary;
import io.pushline.common.HBaseTables;
import io.pushline.schema.segments.MemberRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.MapPartitionFunction;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Gives every row its uid's dense id, assigning new ids in bulk (one dictionary round trip per
 * batch of rows) so a 100M-line file is not 100M single writes.
 */
class AssignIds implements MapPartitionFunction<MemberRow, MemberRow> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;
    private final int batch;
    private final int cacheSize;

    AssignIds(String quorum, String namespace, int batch, int cacheSize) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.batch = batch;
        this.cacheSize = cacheSize;
    }

    @Override
    public void mapPartition(Iterable<MemberRow> rows, Collector<MemberRow> out) throws Exception {
        try (Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
                IdDictionary dictionary = new IdDictionary(c, namespace, cacheSize)) {
            List<MemberRow> pending = new ArrayList<>(batch);
            for (MemberRow row : rows) {
                pending.add(row);
                if (pending.size() == batch) {
                    flush(dictionary, pending, out);
                }
            }
            flush(dictionary, pending, out);
        }
    }

    private static void flush(
            IdDictionary dictionary, List<MemberRow> rows, Collector<MemberRow> out)
            throws Exception {
        if (rows.isEmpty()) {
            return;
        }
        List<String> uids = new ArrayList<>(rows.size());
        for (MemberRow r : rows) {
            uids.add(r.uid);
        }
        Map<String, Integer> ids = dictionary.assignAll(uids);
        for (MemberRow r : rows) {
            r.id = ids.get(r.uid);
            out.collect(r);
        }
        rows.clear();
    }
}
