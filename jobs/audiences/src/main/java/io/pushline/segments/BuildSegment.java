package io.pushline.segments;

import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.IdSet;
import io.pushline.audience.eval.SegmentBuilder;
import io.pushline.common.HBaseTables;
import io.pushline.schema.segments.BuiltSegment;
import io.pushline.schema.segments.MemberRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Keyed by segment, in BATCH mode (keys one after another, a timer at the end of each): collects
 * the segment's rows, then writes its new version. A package file replaces the membership; changes
 * apply in (ts, partition, offset) order on top of the file or, without one, of the last version.
 */
class BuildSegment extends KeyedProcessFunction<String, MemberRow, BuiltSegment> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;
    private transient Connection connection;
    private transient SegmentStore store;
    private transient Counter written;

    // BATCH mode hands over one key's rows at a time: the heap holds one segment.
    private transient String key;
    private transient SegmentBuilder fromFile;
    private transient long fileRows;
    private transient List<MemberRow> changes;

    BuildSegment(String quorum, String namespace) {
        this.quorum = quorum;
        this.namespace = namespace;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
        store = new SegmentStore(connection, namespace);
        written = getRuntimeContext().getMetricGroup().counter("segmentsWritten");
    }

    @Override
    public void processElement(MemberRow row, Context ctx, Collector<BuiltSegment> out) {
        if (!ctx.getCurrentKey().equals(key)) {
            key = ctx.getCurrentKey();
            fromFile = null;
            fileRows = 0;
            changes = new ArrayList<>();
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }
        if (row.op == MemberRow.FILE) {
            if (fromFile == null) {
                fromFile = new SegmentBuilder();
            }
            fromFile.add(row.id);
            fileRows++;
        } else {
            changes.add(row);
        }
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<BuiltSegment> out) throws Exception {
        String name = ctx.getCurrentKey();
        SegmentBuilder members = fromFile;
        if (members == null) {
            byte[] last = store.read(name);
            members =
                    last == null ? new SegmentBuilder() : new SegmentBuilder(IdSet.fromBytes(last));
        }
        changes.sort(
                Comparator.comparingLong((MemberRow r) -> r.ts).thenComparingLong(r -> r.order));
        BuiltSegment b = new BuiltSegment();
        for (MemberRow r : changes) {
            if (r.op == MemberRow.ADD) {
                members.add(r.id);
                b.adds++;
            } else {
                members.remove(r.id);
                b.removes++;
            }
        }
        IdSet set = members.build();
        b.name = name;
        b.fromFile = fromFile != null;
        b.fileRows = fileRows;
        b.cardinality = set.cardinality();
        String source = b.fromFile ? (changes.isEmpty() ? "file" : "file+changes") : "changes";
        b.version = store.write(name, set.toBytes(), b.cardinality, source);
        written.inc();
        out.collect(b);
        key = null;
        fromFile = null;
        changes = null;
    }

    @Override
    public void close() throws Exception {
        if (store != null) {
            store.close();
        }
        if (connection != null) {
            connection.close();
        }
    }
}
