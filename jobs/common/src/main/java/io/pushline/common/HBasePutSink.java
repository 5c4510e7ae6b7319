package io.pushline.common;

import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.sendtime.SendTime;
import java.io.IOException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writes one Put per record to a table of the namespace, buffered and flushed at the end of the
 * input (and at checkpoints in a streaming job); writing a row again is harmless. The nightly jobs'
 * results: {@link #sendTimes} and {@link #recalls}.
 */
public class HBasePutSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;
    private final String table;
    private final SerializableFunction<T, Put> toPut;

    public HBasePutSink(
            String quorum, String namespace, String table, SerializableFunction<T, Put> toPut) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.table = table;
        this.toPut = toPut;
    }

    /** {@code user_sendtime}: row uid; first, last, date (the run's), predictor. */
    public static HBasePutSink<SendTime> sendTimes(
            String quorum, String namespace, String date, String predictor) {
        return new HBasePutSink<>(
                quorum,
                namespace,
                HBaseTables.USER_SENDTIME,
                s ->
                        new Put(Bytes.toBytes(s.uid))
                                .addColumn(HBaseTables.FAMILY, col("first"), Bytes.toBytes(s.first))
                                .addColumn(HBaseTables.FAMILY, col("last"), Bytes.toBytes(s.last))
                                .addColumn(HBaseTables.FAMILY, col("date"), Bytes.toBytes(date))
                                .addColumn(
                                        HBaseTables.FAMILY,
                                        col("predictor"),
                                        Bytes.toBytes(predictor)));
    }

    /** {@code user_recall}: row {@code uid 0x00 date}; items (JSON array in sending order). */
    public static HBasePutSink<UserRecall> recalls(String quorum, String namespace) {
        return new HBasePutSink<>(
                quorum,
                namespace,
                HBaseTables.USER_RECALL,
                r -> {
                    Put put =
                            new Put(HBaseTables.recallRow(r.uid, r.date))
                                    .addColumn(
                                            HBaseTables.FAMILY,
                                            col("items"),
                                            Bytes.toBytes(Json.write(r.items)));
                    if (r.tz != null) {
                        put.addColumn(HBaseTables.FAMILY, col("tz"), Bytes.toBytes(r.tz));
                    }
                    return put;
                });
    }

    /** {@code push_schedule}: one row per personal slot ({@link ScheduleTable}). */
    public static HBasePutSink<PushRequest> schedule(String quorum, String namespace) {
        return new HBasePutSink<>(quorum, namespace, ScheduleTable.NAME, ScheduleTable::put);
    }

    private static byte[] col(String name) {
        return Bytes.toBytes(name);
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return new Writer();
    }

    private final class Writer implements SinkWriter<T> {
        private final Connection connection;
        private final BufferedMutator mutator;

        Writer() throws IOException {
            connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            // A streaming job's rows show within a second, not only at checkpoints.
            mutator =
                    connection.getBufferedMutator(
                            new BufferedMutatorParams(TableName.valueOf(namespace, table))
                                    .setWriteBufferPeriodicFlushTimeoutMs(1_000));
        }

        @Override
        public void write(T record, Context context) throws IOException {
            mutator.mutate(toPut.apply(record));
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            mutator.flush();
        }

        @Override
        public void close() throws Exception {
            mutator.close();
            connection.close();
        }
    }
}
