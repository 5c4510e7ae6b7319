package io.pushline.common;

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

/**
 * Writes one Put per record to a table of the namespace, buffered and flushed at the end of the
 * input (and at checkpoints in a streaming job); writing a row again is harmless. The table that
 * owns a row layout builds its sink from this (send times, recalls, personal slots).
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
