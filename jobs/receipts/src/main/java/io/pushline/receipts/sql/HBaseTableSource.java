package io.pushline.receipts.sql;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;

/** Scan of any receipts table; lookup on {@code lifecycle} by its row key. */
final class HBaseTableSource implements ScanTableSource, LookupTableSource {
    private final String quorum;
    private final String namespace;
    private final ReceiptTable table;

    HBaseTableSource(String quorum, String namespace, ReceiptTable table) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.table = table;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(new HBaseScanSource(quorum, namespace, table));
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        int[][] keys = context.getKeys();
        int msgId = table.columns().indexOf("msg_id");
        int deviceId = table.columns().indexOf("device_id");
        if (table != ReceiptTable.LIFECYCLE
                || keys.length != 2
                || keys[0].length != 1
                || keys[1].length != 1) {
            throw new ValidationException(
                    "lookup joins are supported on lifecycle by (msg_id, device_id) only");
        }
        int msgIdAt = keys[0][0] == msgId ? 0 : 1;
        int deviceIdAt = 1 - msgIdAt;
        if (keys[msgIdAt][0] != msgId || keys[deviceIdAt][0] != deviceId) {
            throw new ValidationException(
                    "lookup joins are supported on lifecycle by (msg_id, device_id) only");
        }
        return LookupFunctionProvider.of(
                new LifecycleLookup(quorum, namespace, msgIdAt, deviceIdAt));
    }

    @Override
    public DynamicTableSource copy() {
        return new HBaseTableSource(quorum, namespace, table);
    }

    @Override
    public String asSummaryString() {
        return "HBase " + namespace + ":" + table.hbaseName;
    }
}
