package io.pushline.receipts.report;

import io.pushline.common.HBaseTables;
import io.pushline.receipts.ReceiptTables;
import io.pushline.schema.receipts.MetricRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/** One campaign's numbers from the metrics tables: totals, per vendor, per minute. */
public final class CampaignReport {
    public final String msgId;
    public final List<MetricRow> minutes = new ArrayList<>();
    public final List<MetricRow> days = new ArrayList<>();
    public final MetricRow total = new MetricRow();
    public final Map<String, MetricRow> byVendor = new TreeMap<>();

    /** Minute start → {sent, delivered, clicked, dropped}. */
    public final TreeMap<Long, long[]> timeline = new TreeMap<>();

    public final TreeSet<String> msgTypes = new TreeSet<>();

    private CampaignReport(String msgId) {
        this.msgId = msgId;
    }

    public static CampaignReport load(String quorum, String namespace, String msgId)
            throws IOException {
        try (Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
            return load(c, namespace, msgId);
        }
    }

    /** The campaign's rows read over an open connection (the server's). */
    public static CampaignReport load(Connection c, String namespace, String msgId)
            throws IOException {
        CampaignReport r = new CampaignReport(msgId);
        r.minutes.addAll(scan(c, namespace, ReceiptTables.METRICS, MetricRow.MINUTE, msgId));
        r.days.addAll(scan(c, namespace, ReceiptTables.METRICS_DAILY, MetricRow.DAY, msgId));
        for (MetricRow m : r.minutes) {
            add(r.total, m);
            add(r.byVendor.computeIfAbsent(m.vendor, v -> new MetricRow()), m);
            long[] t = r.timeline.computeIfAbsent(m.start, s -> new long[4]);
            t[0] += m.sent;
            t[1] += m.delivered;
            t[2] += m.clicked;
            t[3] += m.dropped;
            r.msgTypes.add(m.msgType);
        }
        return r;
    }

    public boolean isEmpty() {
        return minutes.isEmpty();
    }

    private static List<MetricRow> scan(
            Connection c, String namespace, String table, String grain, String msgId)
            throws IOException {
        List<MetricRow> out = new ArrayList<>();
        try (Table t = c.getTable(TableName.valueOf(namespace, table));
                ResultScanner s =
                        t.getScanner(
                                new Scan()
                                        .setRowPrefixFilter(ReceiptTables.metricsPrefix(msgId)))) {
            for (Result res : s) {
                out.add(ReceiptTables.metricRow(grain, res));
            }
        }
        return out;
    }

    private static void add(MetricRow into, MetricRow m) {
        into.passed += m.passed;
        into.dropped += m.dropped;
        into.sent += m.sent;
        into.delivered += m.delivered;
        into.clicked += m.clicked;
        into.failed += m.failed;
        into.tokenInvalid += m.tokenInvalid;
        into.inboxRead += m.inboxRead;
        m.drops.forEach((k, v) -> into.drops.merge(k, v, Long::sum));
        m.fails.forEach((k, v) -> into.fails.merge(k, v, Long::sum));
    }

    /** A latency for people: ms below 10 s, seconds above. */
    public static String ms(long ms) {
        return ms < 10_000 ? ms + " ms" : String.format("%.1f s", ms / 1000.0);
    }

    public static String pct(long part, long whole) {
        return whole == 0 ? "-" : String.format("%.1f%%", 100.0 * part / whole);
    }
}
