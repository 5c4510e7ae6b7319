package io.pushline.receipts;

import io.pushline.common.HBaseTables;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The receipts job's HBase tables, their row keys and columns; the one place that writes and reads
 * them (job sinks, {@code ./pushline trace}, {@code report} and the SQL table source).
 *
 * <ul>
 *   <li>{@code push_metrics} (per minute) and {@code push_metrics_daily} (per UTC day): row {@code
 *       msgId 0x00 start(8 bytes) msgType 0x00 vendor}, so a campaign's rows are one prefix scan in
 *       time order. Family {@code m}: passed, dropped, sent, delivered, clicked, failed,
 *       token_invalid, lat_n, lat_p50, lat_p90, lat_p99, lat_max (8-byte longs; absent = 0); family
 *       {@code r}: drops per reason; family {@code c}: failures per vendor code.
 *   <li>{@code push_lifecycle}: row {@code msgId 0x00 deviceId}; one cell {@code m:l} with the
 *       lifecycle (see {@link #put(Lifecycle)}). Kept {@link #LIFECYCLE_TTL_SECONDS}.
 * </ul>
 */
public final class ReceiptTables {
    public static final String METRICS = "push_metrics";
    public static final String METRICS_DAILY = "push_metrics_daily";
    public static final String LIFECYCLE = "push_lifecycle";

    public static final byte[] COUNTS = Bytes.toBytes("m");
    public static final byte[] DROPS = Bytes.toBytes("r");
    public static final byte[] FAILS = Bytes.toBytes("c");

    public static final int LIFECYCLE_TTL_SECONDS = 30 * 24 * 3600;

    private ReceiptTables() {}

    public static String tableFor(String grain) {
        return MetricRow.DAY.equals(grain) ? METRICS_DAILY : METRICS;
    }

    public static byte[] metricsPrefix(String msgId) {
        return Bytes.add(Bytes.toBytes(msgId), new byte[] {0});
    }

    public static byte[] metricsRow(String msgId, long start, String msgType, String vendor) {
        return Bytes.add(
                metricsPrefix(msgId),
                Bytes.toBytes(start),
                Bytes.add(Bytes.toBytes(msgType), new byte[] {0}, Bytes.toBytes(vendor)));
    }

    public static byte[] lifecycleRow(String msgId, String deviceId) {
        return Bytes.add(Bytes.toBytes(msgId), new byte[] {0}, Bytes.toBytes(deviceId));
    }

    public static Put put(MetricRow r) {
        Put p = new Put(metricsRow(r.msgId, r.start, r.msgType, r.vendor));
        count(p, "passed", r.passed);
        count(p, "dropped", r.dropped);
        count(p, "sent", r.sent);
        count(p, "delivered", r.delivered);
        count(p, "clicked", r.clicked);
        count(p, "failed", r.failed);
        count(p, "token_invalid", r.tokenInvalid);
        count(p, "inbox_read", r.inboxRead);
        count(p, "lat_n", r.latencyCount);
        count(p, "lat_p50", r.latencyP50);
        count(p, "lat_p90", r.latencyP90);
        count(p, "lat_p99", r.latencyP99);
        count(p, "lat_max", r.latencyMax);
        count(p, "lc_acked", r.lcAcked);
        count(p, "lc_retries", r.lcRetries);
        count(p, "lc_fallbacks", r.lcFallbacks);
        count(p, "lc_give_ups", r.lcGiveUps);
        count(p, "comp_n", r.compensationCount);
        count(p, "comp_p50", r.compensationP50);
        count(p, "comp_p90", r.compensationP90);
        count(p, "comp_p99", r.compensationP99);
        count(p, "comp_max", r.compensationMax);
        for (Map.Entry<String, Long> e : r.drops.entrySet()) {
            p.addColumn(DROPS, Bytes.toBytes(e.getKey()), Bytes.toBytes(e.getValue()));
        }
        for (Map.Entry<String, Long> e : r.fails.entrySet()) {
            p.addColumn(FAILS, Bytes.toBytes(e.getKey()), Bytes.toBytes(e.getValue()));
        }
        if (p.isEmpty()) {
            p.addColumn(COUNTS, Bytes.toBytes("passed"), Bytes.toBytes(0L)); // HBase needs a cell
        }
        return p;
    }

    /**
     * Zeros are not written (a missing cell reads as 0): most rows of personal pushes have one or
     * two counts, and counts only grow, so an upsert never needs to clear one.
     */
    private static void count(Put p, String name, long value) {
        if (value != 0) {
            p.addColumn(COUNTS, Bytes.toBytes(name), Bytes.toBytes(value));
        }
    }

    /** A metrics row back from HBase; {@code grain} names the table it came from. */
    public static MetricRow metricRow(String grain, Result res) {
        byte[] row = res.getRow();
        int nul = indexOf(row, 0);
        MetricRow r = new MetricRow();
        r.grain = grain;
        r.msgId = new String(row, 0, nul, StandardCharsets.UTF_8);
        r.start = Bytes.toLong(row, nul + 1);
        int typeStart = nul + 9;
        int nul2 = indexOf(row, typeStart);
        r.msgType = new String(row, typeStart, nul2 - typeStart, StandardCharsets.UTF_8);
        r.vendor = new String(row, nul2 + 1, row.length - nul2 - 1, StandardCharsets.UTF_8);
        r.passed = longOf(res, "passed");
        r.dropped = longOf(res, "dropped");
        r.sent = longOf(res, "sent");
        r.delivered = longOf(res, "delivered");
        r.clicked = longOf(res, "clicked");
        r.failed = longOf(res, "failed");
        r.tokenInvalid = longOf(res, "token_invalid");
        r.inboxRead = longOf(res, "inbox_read");
        r.latencyCount = longOf(res, "lat_n");
        r.latencyP50 = longOf(res, "lat_p50");
        r.latencyP90 = longOf(res, "lat_p90");
        r.latencyP99 = longOf(res, "lat_p99");
        r.latencyMax = longOf(res, "lat_max");
        r.lcAcked = longOf(res, "lc_acked");
        r.lcRetries = longOf(res, "lc_retries");
        r.lcFallbacks = longOf(res, "lc_fallbacks");
        r.lcGiveUps = longOf(res, "lc_give_ups");
        r.compensationCount = longOf(res, "comp_n");
        r.compensationP50 = longOf(res, "comp_p50");
        r.compensationP90 = longOf(res, "comp_p90");
        r.compensationP99 = longOf(res, "comp_p99");
        r.compensationMax = longOf(res, "comp_max");
        r.drops = family(res, DROPS);
        r.fails = family(res, FAILS);
        return r;
    }

    /** The lifecycle's one cell: {@code m:l}. */
    public static final byte[] LIFECYCLE_COLUMN = Bytes.toBytes("l");

    private static final byte LIFECYCLE_VERSION = 1;

    /**
     * A lifecycle row: one cell, so an update costs one cell (three times the puts per second of a
     * column per field on our HBase). Encoding version 1: version byte; uid, vendor, msg_type,
     * decision, reason, fail_code as (present byte, UTF); code as int; decided, sent, delivered,
     * clicked, failed and token_invalid times as longs ({@link Lifecycle#NONE} when unseen). Then,
     * added later and absent from older cells: the inbox read time; the long connection's retries,
     * retry times (count, longs), acked time, compensation, fallback time, fallback vendor (present
     * byte, UTF) and give-up time.
     */
    public static Put put(Lifecycle l) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(LIFECYCLE_VERSION);
            for (String v :
                    new String[] {l.uid, l.vendor, l.msgType, l.decision, l.reason, l.failCode}) {
                out.writeBoolean(v != null);
                if (v != null) {
                    out.writeUTF(v);
                }
            }
            out.writeInt(l.code);
            for (long t :
                    new long[] {
                        l.decidedAt,
                        l.sentAt,
                        l.deliveredAt,
                        l.clickedAt,
                        l.failedAt,
                        l.tokenInvalidAt
                    }) {
                out.writeLong(t);
            }
            out.writeLong(l.inboxReadAt);
            out.writeInt(l.lcRetries);
            long[] at = l.lcRetryAt == null ? new long[0] : l.lcRetryAt;
            out.writeByte(at.length);
            for (long t : at) {
                out.writeLong(t);
            }
            out.writeLong(l.lcAckedAt);
            out.writeLong(l.lcCompensationMs);
            out.writeLong(l.lcFallbackAt);
            out.writeBoolean(l.lcFallbackVendor != null);
            if (l.lcFallbackVendor != null) {
                out.writeUTF(l.lcFallbackVendor);
            }
            out.writeLong(l.lcGiveUpAt);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Put(lifecycleRow(l.msgId, l.deviceId))
                .addColumn(COUNTS, LIFECYCLE_COLUMN, bytes.toByteArray());
    }

    public static Lifecycle lifecycle(Result res) {
        byte[] row = res.getRow();
        int nul = indexOf(row, 0);
        Lifecycle l = new Lifecycle();
        l.msgId = new String(row, 0, nul, StandardCharsets.UTF_8);
        l.deviceId = new String(row, nul + 1, row.length - nul - 1, StandardCharsets.UTF_8);
        byte[] cell = res.getValue(COUNTS, LIFECYCLE_COLUMN);
        if (cell == null) {
            return l;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(cell))) {
            int version = in.readByte();
            if (version != LIFECYCLE_VERSION) {
                throw new IOException("unknown lifecycle encoding version " + version);
            }
            String[] text = new String[6];
            for (int i = 0; i < text.length; i++) {
                text[i] = in.readBoolean() ? in.readUTF() : null;
            }
            l.uid = text[0];
            l.vendor = text[1];
            l.msgType = text[2];
            l.decision = text[3];
            l.reason = text[4];
            l.failCode = text[5];
            l.code = in.readInt();
            l.decidedAt = in.readLong();
            l.sentAt = in.readLong();
            l.deliveredAt = in.readLong();
            l.clickedAt = in.readLong();
            l.failedAt = in.readLong();
            l.tokenInvalidAt = in.readLong();
            if (in.available() > 0) {
                l.inboxReadAt = in.readLong();
                l.lcRetries = in.readInt();
                long[] at = new long[in.readUnsignedByte()];
                for (int i = 0; i < at.length; i++) {
                    at[i] = in.readLong();
                }
                l.lcRetryAt = at.length == 0 ? null : at;
                l.lcAckedAt = in.readLong();
                l.lcCompensationMs = in.readLong();
                l.lcFallbackAt = in.readLong();
                l.lcFallbackVendor = in.readBoolean() ? in.readUTF() : null;
                l.lcGiveUpAt = in.readLong();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return l;
    }

    private static long longOf(Result res, String name) {
        byte[] v = res.getValue(COUNTS, Bytes.toBytes(name));
        return v == null ? 0 : Bytes.toLong(v);
    }

    private static Map<String, Long> family(Result res, byte[] family) {
        Map<String, Long> out = new TreeMap<>();
        NavigableMap<byte[], byte[]> cells = res.getFamilyMap(family);
        if (cells != null) {
            for (Map.Entry<byte[], byte[]> e : cells.entrySet()) {
                out.put(Bytes.toString(e.getKey()), Bytes.toLong(e.getValue()));
            }
        }
        return out;
    }

    private static int indexOf(byte[] row, int from) {
        for (int i = from; i < row.length; i++) {
            if (row[i] == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("not a receipts row key: " + Bytes.toStringBinary(row));
    }

    /** Creates the namespace and the three tables where missing. */
    public static void ensure(Connection connection, String namespace) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            HBaseTables.ensureNamespace(admin, namespace);
            List<TableDescriptor> tables = new ArrayList<>();
            for (String name : new String[] {METRICS, METRICS_DAILY}) {
                tables.add(
                        TableDescriptorBuilder.newBuilder(TableName.valueOf(namespace, name))
                                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(COUNTS))
                                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(DROPS))
                                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAILS))
                                .build());
            }
            tables.add(
                    TableDescriptorBuilder.newBuilder(TableName.valueOf(namespace, LIFECYCLE))
                            .setColumnFamily(
                                    ColumnFamilyDescriptorBuilder.newBuilder(COUNTS)
                                            .setTimeToLive(LIFECYCLE_TTL_SECONDS)
                                            .build())
                            .build());
            HBaseTables.createMissing(admin, tables);
        }
    }
}
