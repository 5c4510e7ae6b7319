package io.pushline.receipts.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;

/** Scan of any receipts table; lookup on {@code lifecycle} by its row key. */
final class HBaseTableSource implements ScanTableSource, LookupTableSource, SupportsFilterPushDown {
    private final String quorum;
    private final String namespace;
    private final ReceiptTable table;
    private String msgId;

    HBaseTableSource(String quorum, String namespace, ReceiptTable table) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.table = table;
    }

    /**
     * Takes {@code msg_id = 'literal'} to scan only that campaign's rows (one key range: every
     * table's row key starts with the msgId). All filters stay with the planner as well, so the
     * result is the same with or without this.
     */
    @Override
    public Result applyFilters(List<ResolvedExpression> filters) {
        List<ResolvedExpression> accepted = new ArrayList<>();
        for (ResolvedExpression f : filters) {
            String value = msgIdEquals(f);
            if (value != null && msgId == null) {
                msgId = value;
                accepted.add(f);
            }
        }
        return Result.of(accepted, filters);
    }

    private static String msgIdEquals(ResolvedExpression f) {
        if (!(f instanceof CallExpression)
                || ((CallExpression) f).getFunctionDefinition()
                        != BuiltInFunctionDefinitions.EQUALS) {
            return null;
        }
        List<ResolvedExpression> args = ((CallExpression) f).getResolvedChildren();
        String field = null;
        String value = null;
        for (ResolvedExpression a : args) {
            if (a instanceof FieldReferenceExpression) {
                field = ((FieldReferenceExpression) a).getName();
            } else if (a instanceof ValueLiteralExpression) {
                value = ((ValueLiteralExpression) a).getValueAs(String.class).orElse(null);
            }
        }
        return "msg_id".equals(field) ? value : null;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceProvider.of(new HBaseScanSource(quorum, namespace, table, msgId));
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
        HBaseTableSource c = new HBaseTableSource(quorum, namespace, table);
        c.msgId = msgId;
        return c;
    }

    @Override
    public String asSummaryString() {
        return "HBase "
                + namespace
                + ":"
                + table.hbaseName
                + (msgId == null ? "" : " rows of msg_id " + msgId);
    }
}
