package io.pushline.common;

import io.pushline.schema.sendtime.SendTime;
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
 * Writes each user's predicted send times to {@code user_sendtime} (row uid), with the run's date
 * and the predictor; a later run overwrites. Puts are buffered and flushed at the end of the input
 * (and at checkpoints in a streaming job); writing the same row twice is harmless.
 */
public class HBaseSendTimeSink implements Sink<SendTime> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;
    private final String date;
    private final String predictor;

    public HBaseSendTimeSink(String quorum, String namespace, String date, String predictor) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.date = date;
        this.predictor = predictor;
    }

    @Override
    public SinkWriter<SendTime> createWriter(WriterInitContext context) throws IOException {
        return new Writer();
    }

    private final class Writer implements SinkWriter<SendTime> {
        private final Connection connection;
        private final BufferedMutator table;

        Writer() throws IOException {
            connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            table = connection.getBufferedMutator(HBaseTables.userSendTime(namespace));
        }

        @Override
        public void write(SendTime s, Context context) throws IOException {
            Put put = new Put(Bytes.toBytes(s.uid));
            put.addColumn(HBaseTables.FAMILY, Bytes.toBytes("first"), Bytes.toBytes(s.first));
            put.addColumn(HBaseTables.FAMILY, Bytes.toBytes("last"), Bytes.toBytes(s.last));
            put.addColumn(HBaseTables.FAMILY, Bytes.toBytes("date"), Bytes.toBytes(date));
            put.addColumn(HBaseTables.FAMILY, Bytes.toBytes("predictor"), Bytes.toBytes(predictor));
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
