package io.pushline.receipts.sql;

import io.pushline.receipts.ReceiptTables;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.hadoop.hbase.client.Result;

/**
 * The receipts tables as SQL sees them: the columns of each and how an HBase row becomes a {@link
 * RowData}. The HBase layout itself is {@link ReceiptTables}'.
 */
public enum ReceiptTable {
    METRICS_MINUTE("metrics_minute", ReceiptTables.METRICS, MetricRow.MINUTE),
    METRICS_DAILY("metrics_daily", ReceiptTables.METRICS_DAILY, MetricRow.DAY),
    LIFECYCLE("lifecycle", ReceiptTables.LIFECYCLE, null);

    /** The name in SQL. */
    public final String sqlName;

    /** The HBase table (in the namespace). */
    public final String hbaseName;

    final String grain;

    ReceiptTable(String sqlName, String hbaseName, String grain) {
        this.sqlName = sqlName;
        this.hbaseName = hbaseName;
        this.grain = grain;
    }

    public static ReceiptTable ofSqlName(String name) {
        for (ReceiptTable t : values()) {
            if (t.sqlName.equals(name)) {
                return t;
            }
        }
        return null;
    }

    public String comment() {
        if (this == LIFECYCLE) {
            return "One row per (message, device): the gate's decision, sent, delivered and clicked"
                    + " times, and a status code. Lookup by (msg_id, device_id).";
        }
        return "Counts per "
                + grain
                + " (UTC) x campaign (msg_id) x msg_type x vendor; latency = ms from the push's"
                + " time to delivery; compensation = ms from a long-connection send to its ack"
                + " after at least one retry.";
    }

    public Schema schema() {
        if (this == LIFECYCLE) {
            return Schema.newBuilder()
                    .column("msg_id", DataTypes.STRING().notNull())
                    .column("device_id", DataTypes.STRING().notNull())
                    .column("uid", DataTypes.STRING())
                    .column("vendor", DataTypes.STRING())
                    .column("msg_type", DataTypes.STRING())
                    .column("decision", DataTypes.STRING())
                    .column("reason", DataTypes.STRING())
                    .column("status", DataTypes.INT())
                    .column("status_name", DataTypes.STRING())
                    .column("decided_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("sent_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("delivered_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("clicked_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("failed_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("fail_code", DataTypes.STRING())
                    .column("token_invalid_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("inbox_read_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("lc_retries", DataTypes.INT())
                    .column("lc_acked_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("compensation_ms", DataTypes.BIGINT())
                    .column("lc_fallback_at", DataTypes.TIMESTAMP_LTZ(3))
                    .column("lc_fallback_vendor", DataTypes.STRING())
                    .column("lc_give_up_at", DataTypes.TIMESTAMP_LTZ(3))
                    .primaryKey("msg_id", "device_id")
                    .build();
        }
        return Schema.newBuilder()
                .column("window_start", DataTypes.TIMESTAMP_LTZ(3).notNull())
                .column("msg_id", DataTypes.STRING().notNull())
                .column("msg_type", DataTypes.STRING().notNull())
                .column("vendor", DataTypes.STRING().notNull())
                .column("passed", DataTypes.BIGINT())
                .column("dropped", DataTypes.BIGINT())
                .column("drops", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("sent", DataTypes.BIGINT())
                .column("delivered", DataTypes.BIGINT())
                .column("clicked", DataTypes.BIGINT())
                .column("failed", DataTypes.BIGINT())
                .column("fails", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("token_invalid", DataTypes.BIGINT())
                .column("inbox_read", DataTypes.BIGINT())
                .column("latency_count", DataTypes.BIGINT())
                .column("latency_p50_ms", DataTypes.BIGINT())
                .column("latency_p90_ms", DataTypes.BIGINT())
                .column("latency_p99_ms", DataTypes.BIGINT())
                .column("latency_max_ms", DataTypes.BIGINT())
                .column("lc_acked", DataTypes.BIGINT())
                .column("lc_retries", DataTypes.BIGINT())
                .column("lc_fallbacks", DataTypes.BIGINT())
                .column("lc_give_ups", DataTypes.BIGINT())
                .column("compensation_count", DataTypes.BIGINT())
                .column("compensation_p50_ms", DataTypes.BIGINT())
                .column("compensation_p90_ms", DataTypes.BIGINT())
                .column("compensation_p99_ms", DataTypes.BIGINT())
                .column("compensation_max_ms", DataTypes.BIGINT())
                .primaryKey("window_start", "msg_id", "msg_type", "vendor")
                .build();
    }

    /** Column names in order, as {@link #toRow} fills them. */
    public List<String> columns() {
        return schema().getColumns().stream()
                .map(Schema.UnresolvedColumn::getName)
                .collect(java.util.stream.Collectors.toList());
    }

    public RowData toRow(Result res) {
        if (this == LIFECYCLE) {
            Lifecycle l = ReceiptTables.lifecycle(res);
            int status = l.status();
            return GenericRowData.of(
                    str(l.msgId),
                    str(l.deviceId),
                    str(l.uid),
                    str(l.vendor),
                    str(l.msgType),
                    str(l.decision),
                    str(l.reason),
                    status,
                    str(Lifecycle.statusName(status)),
                    time(l.decidedAt),
                    time(l.sentAt),
                    time(l.deliveredAt),
                    time(l.clickedAt),
                    time(l.failedAt),
                    str(l.failCode),
                    time(l.tokenInvalidAt),
                    time(l.inboxReadAt),
                    l.lcRetries,
                    time(l.lcAckedAt),
                    l.lcCompensationMs < 0 ? null : l.lcCompensationMs,
                    time(l.lcFallbackAt),
                    str(l.lcFallbackVendor),
                    time(l.lcGiveUpAt));
        }
        MetricRow r = ReceiptTables.metricRow(grain, res);
        return GenericRowData.of(
                TimestampData.fromEpochMillis(r.start),
                str(r.msgId),
                str(r.msgType),
                str(r.vendor),
                r.passed,
                r.dropped,
                map(r.drops),
                r.sent,
                r.delivered,
                r.clicked,
                r.failed,
                map(r.fails),
                r.tokenInvalid,
                r.inboxRead,
                r.latencyCount,
                r.latencyP50,
                r.latencyP90,
                r.latencyP99,
                r.latencyMax,
                r.lcAcked,
                r.lcRetries,
                r.lcFallbacks,
                r.lcGiveUps,
                r.compensationCount,
                r.compensationP50,
                r.compensationP90,
                r.compensationP99,
                r.compensationMax);
    }

    private static StringData str(String s) {
        return s == null ? null : StringData.fromString(s);
    }

    private static TimestampData time(long ms) {
        return ms == Lifecycle.NONE ? null : TimestampData.fromEpochMillis(ms);
    }

    private static GenericMapData map(Map<String, Long> m) {
        Map<Object, Object> out = new HashMap<>();
        m.forEach((k, v) -> out.put(StringData.fromString(k), v));
        return new GenericMapData(out);
    }
}
