package io.pushline.recall;

import io.pushline.common.HBasePutSink;
import io.pushline.common.HBaseTables;
import io.pushline.schema.Json;
import io.pushline.schema.recall.UserRecall;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/** {@code user_recall}: row {@code uid 0x00 date}; items (JSON array in sending order), tz. */
public final class RecallTable {
    private static final byte[] ITEMS = Bytes.toBytes("items");
    private static final byte[] TZ = Bytes.toBytes("tz");

    private RecallTable() {}

    public static HBasePutSink<UserRecall> sink(String quorum, String namespace) {
        return new HBasePutSink<>(
                quorum,
                namespace,
                HBaseTables.USER_RECALL,
                r -> {
                    Put put =
                            new Put(HBaseTables.recallRow(r.uid, r.date))
                                    .addColumn(
                                            HBaseTables.FAMILY,
                                            ITEMS,
                                            Bytes.toBytes(Json.write(r.items)));
                    if (r.tz != null) {
                        put.addColumn(HBaseTables.FAMILY, TZ, Bytes.toBytes(r.tz));
                    }
                    return put;
                });
    }
}
