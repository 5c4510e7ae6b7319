package io.pushline.receipts.sql;

import io.pushline.common.HBaseTables;
import io.pushline.receipts.ReceiptTables;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/** Lookup joins on {@code lifecycle} by (msg_id, device_id): one HBase Get per key. */
final class LifecycleLookup extends LookupFunction {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;
    private final int msgIdAt;
    private final int deviceIdAt;
    private transient Connection connection;
    private transient Table table;

    /**
     * @param msgIdAt where msg_id is in the key row
     * @param deviceIdAt where device_id is in the key row
     */
    LifecycleLookup(String quorum, String namespace, int msgIdAt, int deviceIdAt) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.msgIdAt = msgIdAt;
        this.deviceIdAt = deviceIdAt;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
        table = connection.getTable(TableName.valueOf(namespace, ReceiptTables.LIFECYCLE));
    }

    @Override
    public Collection<RowData> lookup(RowData key) throws IOException {
        if (key.isNullAt(msgIdAt) || key.isNullAt(deviceIdAt)) {
            return List.of();
        }
        Result r =
                table.get(
                        new Get(
                                ReceiptTables.lifecycleRow(
                                        key.getString(msgIdAt).toString(),
                                        key.getString(deviceIdAt).toString())));
        return r.isEmpty() ? List.of() : List.of(ReceiptTable.LIFECYCLE.toRow(r));
    }

    @Override
    public void close() throws Exception {
        if (table != null) {
            table.close();
        }
        if (connection != null) {
            connection.close();
        }
    }
}
