package io.pushline.sendtime;

import io.pushline.common.HBasePutSink;
import io.pushline.common.HBaseTables;
import io.pushline.schema.sendtime.SendTime;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/** {@code user_sendtime}: row uid; first, last (HH:MM, local), date (the run's), predictor. */
public final class SendTimeTable {
    private SendTimeTable() {}

    public static HBasePutSink<SendTime> sink(
            String quorum, String namespace, String date, String predictor) {
        byte[] dateBytes = Bytes.toBytes(date);
        byte[] predictorBytes = Bytes.toBytes(predictor);
        return new HBasePutSink<>(
                quorum,
                namespace,
                HBaseTables.USER_SENDTIME,
                s ->
                        new Put(Bytes.toBytes(s.uid))
                                .addColumn(HBaseTables.FAMILY, col("first"), Bytes.toBytes(s.first))
                                .addColumn(HBaseTables.FAMILY, col("last"), Bytes.toBytes(s.last))
                                .addColumn(HBaseTables.FAMILY, col("date"), dateBytes)
                                .addColumn(HBaseTables.FAMILY, col("predictor"), predictorBytes));
    }

    private static byte[] col(String name) {
        return Bytes.toBytes(name);
    }
}
