package io.pushline.receipts.sql;

import io.pushline.common.HBaseTables;
import io.pushline.common.PendingSplits;
import io.pushline.receipts.ReceiptTables;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * A bounded scan of one receipts table: a split per HBase region, handed to readers as they ask,
 * each read with one scanner. Rows are read in the reader's thread (a scanner caches 1,000 rows per
 * round trip): fine for analysts' queries, not meant as a streaming source.
 */
final class HBaseScanSource implements Source<RowData, RegionSplit, List<RegionSplit>> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;
    private final ReceiptTable table;

    /** Rows of one msgId only ({@code msg_id = '...'} pushed down), or null for all. */
    private final String msgId;

    HBaseScanSource(String quorum, String namespace, ReceiptTable table, String msgId) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.table = table;
        this.msgId = msgId;
    }

    /**
     * The split's key range, narrowed to the msgId's rows when there is one: every table's row key
     * starts with {@code msgId 0x00}. Null when nothing of the split is left.
     */
    Scan scanOf(RegionSplit split) {
        byte[] start = split.start;
        byte[] stop = split.end;
        if (msgId != null) {
            byte[] from = ReceiptTables.metricsPrefix(msgId);
            byte[] until = from.clone();
            until[until.length - 1] = 1;
            if (Bytes.compareTo(from, start) > 0) {
                start = from;
            }
            if (stop.length == 0 || Bytes.compareTo(until, stop) < 0) {
                stop = until;
            }
            if (Bytes.compareTo(start, stop) >= 0) {
                return null;
            }
        }
        return new Scan().withStartRow(start).withStopRow(stop).setCaching(1_000);
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<RegionSplit, List<RegionSplit>> createEnumerator(
            SplitEnumeratorContext<RegionSplit> context) throws IOException {
        List<RegionSplit> splits = new ArrayList<>();
        TableName name = TableName.valueOf(namespace, table.hbaseName);
        try (Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
                RegionLocator locator = c.getRegionLocator(name)) {
            try (org.apache.hadoop.hbase.client.Admin admin = c.getAdmin()) {
                if (!admin.tableExists(name)) {
                    throw new IOException(
                            "HBase table "
                                    + name
                                    + " does not exist: the receipts job creates it when it"
                                    + " starts (or check hbase.namespace)");
                }
            }
            Pair<byte[][], byte[][]> keys = locator.getStartEndKeys();
            for (int i = 0; i < keys.getFirst().length; i++) {
                splits.add(new RegionSplit(keys.getFirst()[i], keys.getSecond()[i]));
            }
        }
        return new PendingSplits<>(context, splits);
    }

    @Override
    public SplitEnumerator<RegionSplit, List<RegionSplit>> restoreEnumerator(
            SplitEnumeratorContext<RegionSplit> context, List<RegionSplit> pending) {
        return new PendingSplits<>(context, pending);
    }

    @Override
    public SimpleVersionedSerializer<RegionSplit> getSplitSerializer() {
        return new RegionSplit.Serializer();
    }

    @Override
    public SimpleVersionedSerializer<List<RegionSplit>> getEnumeratorCheckpointSerializer() {
        return new RegionSplit.ListSerializer();
    }

    @Override
    public SourceReader<RowData, RegionSplit> createReader(SourceReaderContext context) {
        return new Reader(context);
    }

    private final class Reader implements SourceReader<RowData, RegionSplit> {
        private final SourceReaderContext context;
        private final Deque<RegionSplit> splits = new ArrayDeque<>();
        private Connection connection;
        private Table hbaseTable;
        private ResultScanner scanner;
        private boolean noMoreSplits;
        private CompletableFuture<Void> available = new CompletableFuture<>();

        Reader(SourceReaderContext context) {
            this.context = context;
        }

        @Override
        public void start() {
            context.sendSplitRequest();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<RowData> output) throws IOException {
            if (scanner == null) {
                RegionSplit next = splits.poll();
                if (next == null) {
                    if (noMoreSplits) {
                        return InputStatus.END_OF_INPUT;
                    }
                    available = new CompletableFuture<>();
                    return InputStatus.NOTHING_AVAILABLE;
                }
                Scan scan = scanOf(next);
                if (scan == null) {
                    context.sendSplitRequest();
                    return InputStatus.MORE_AVAILABLE;
                }
                scanner = table().getScanner(scan);
            }
            Result r = scanner.next();
            if (r == null) {
                scanner.close();
                scanner = null;
                context.sendSplitRequest();
                return InputStatus.MORE_AVAILABLE;
            }
            output.collect(table.toRow(r));
            return InputStatus.MORE_AVAILABLE;
        }

        private Table table() throws IOException {
            if (hbaseTable == null) {
                connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
                hbaseTable = connection.getTable(TableName.valueOf(namespace, table.hbaseName));
            }
            return hbaseTable;
        }

        @Override
        public List<RegionSplit> snapshotState(long checkpointId) {
            // A bounded analytic read: a failed one is simply run again from the start.
            return new ArrayList<>(splits);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<RegionSplit> added) {
            splits.addAll(added);
            available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            available.complete(null);
        }

        @Override
        public void close() throws Exception {
            if (scanner != null) {
                scanner.close();
            }
            if (hbaseTable != null) {
                hbaseTable.close();
            }
            if (connection != null) {
                connection.close();
            }
        }
    }
}
