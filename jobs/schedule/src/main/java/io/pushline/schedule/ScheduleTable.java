package io.pushline.schedule;

import io.pushline.common.HBasePutSink;
import io.pushline.common.HBaseTables;
import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code push_schedule}: the personal pushes of the coming day, one row per slot, written by the
 * nightly job and read minute by minute by the feed. Row {@code salt(1) minute(4) msgId}: the epoch
 * minute of the slot after a salt byte from the uid, so one minute's rows are spread over {@link
 * #SALTS} ranges (no single hot region at night or when loading) and a minute is read with {@link
 * #SALTS} short scans. Column {@code d:r}: the request as JSON.
 */
public final class ScheduleTable {
    public static final String NAME = HBaseTables.PUSH_SCHEDULE;
    public static final int SALTS = 16;
    private static final byte[] REQUEST = Bytes.toBytes("r");

    private ScheduleTable() {}

    public static TableName table(String namespace) {
        return TableName.valueOf(namespace, NAME);
    }

    public static byte[] row(PushRequest p) {
        String uid = p.target.uids.get(0);
        byte salt = (byte) Math.floorMod(uid.hashCode(), SALTS);
        return Bytes.add(
                new byte[] {salt}, Bytes.toBytes((int) (p.at / 60_000L)), Bytes.toBytes(p.msgId));
    }

    public static Put put(PushRequest p) {
        return new Put(row(p)).addColumn(HBaseTables.FAMILY, REQUEST, Bytes.toBytes(Json.write(p)));
    }

    /** The slots of epoch minutes {@code [minute, minute + count)}, by slot time then msgId. */
    public static List<PushRequest> minutes(Table table, long minute, int count)
            throws IOException {
        List<PushRequest> out = new ArrayList<>();
        for (int salt = 0; salt < SALTS; salt++) {
            byte[] start = Bytes.add(new byte[] {(byte) salt}, Bytes.toBytes((int) minute));
            byte[] stop = Bytes.add(new byte[] {(byte) salt}, Bytes.toBytes((int) minute + count));
            Scan scan = new Scan().withStartRow(start).withStopRow(stop).setCaching(1000);
            try (ResultScanner rows = table.getScanner(scan)) {
                for (Result r : rows) {
                    out.add(
                            Json.read(
                                    Bytes.toString(r.getValue(HBaseTables.FAMILY, REQUEST)),
                                    PushRequest.class));
                }
            }
        }
        out.sort(Comparator.comparingLong((PushRequest p) -> p.at).thenComparing(p -> p.msgId));
        return out;
    }

    /** One row per personal slot. */
    public static HBasePutSink<PushRequest> sink(String quorum, String namespace) {
        return new HBasePutSink<>(quorum, namespace, NAME, ScheduleTable::put);
    }
}
