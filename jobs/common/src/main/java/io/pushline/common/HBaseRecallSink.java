package io.pushline.common;

import io.pushline.schema.Json;
import io.pushline.schema.recall.UserRecall;
import java.io.IOException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writes each user's recalled items to {@code user_recall}, row {@code uid 0x00 date}, column
 * {@code items} (a JSON array in sending order); writing a row again is harmless.
 */
public class HBaseRecallSink implements Sink<UserRecall> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;

    public HBaseRecallSink(String quorum, String namespace) {
        this.quorum = quorum;
        this.namespace = namespace;
    }

    public static byte[] row(String uid, String date) {
        return Bytes.add(Bytes.toBytes(uid), new byte[] {0}, Bytes.toBytes(date));
    }

    @Override
    public SinkWriter<UserRecall> createWriter(WriterInitContext context) throws IOException {
        return new Writer();
    }

    private final class Writer implements SinkWriter<UserRecall> {
        private final Connection connection;
        private final BufferedMutator table;

        Writer() throws IOException {
            connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            table = connection.getBufferedMutator(HBaseTables.userRecall(namespace));
        }

        @Override
        public void write(UserRecall r, Context context) throws IOException {
            Put put = new Put(row(r.uid, r.date));
            put.addColumn(
                    HBaseTables.FAMILY, Bytes.toBytes("items"), Bytes.toBytes(Json.write(r.items)));
            table.mutate(put);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            table.flush();
        }

        @Override
        public void close() throws Exception {
            table.close();
            connection.close();
        }
    }
}
