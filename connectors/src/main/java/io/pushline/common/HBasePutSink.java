package io.pushline.common;

import java.io.IOException;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;

/**
 * Writes one Put per record to a table of the namespace; writing a row again is harmless, and when
 * a row is written again before the first write was sent, the newest value wins (see {@link
 * PendingPuts}). Sends what it holds every second, at {@link #BATCH_ROWS} rows, at checkpoints and
 * at the end of the input, and waits for each batch before the next. The table that owns a row
 * layout builds its sink from this (send times, recalls, personal slots, receipt metrics).
 */
public class HBasePutSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    /** Rows per batch sent to HBase. */
    static final int BATCH_ROWS = 2_000;

    /** A streaming job's rows show within a second, not only at checkpoints. */
    static final long SEND_INTERVAL_MS = 1_000;

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
        return new Writer(context.getProcessingTimeService());
    }

    private final class Writer implements SinkWriter<T> {
        private final Connection connection;
        private final BufferedMutator mutator;
        private final PendingPuts pending = new PendingPuts();
        private final ProcessingTimeService time;

        Writer(ProcessingTimeService time) throws IOException {
            this.time = time;
            connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            mutator = connection.getBufferedMutator(TableName.valueOf(namespace, table));
            scheduleSend();
        }

        private void scheduleSend() {
            // Timers run in the task's own thread, never at the same time as write().
            time.registerTimer(
                    time.getCurrentProcessingTime() + SEND_INTERVAL_MS,
                    t -> {
                        send();
                        scheduleSend();
                    });
        }

        @Override
        public void write(T record, Context context) throws IOException {
            pending.add(toPut.apply(record));
            if (pending.rows() >= BATCH_ROWS) {
                send();
            }
        }

        /** Sends the pending batch and waits until HBase has taken all of it. */
        private void send() throws IOException {
            if (pending.rows() > 0) {
                mutator.mutate(pending.drain());
                mutator.flush();
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            send();
        }

        @Override
        public void close() throws Exception {
            send();
            mutator.close();
            connection.close();
        }
    }
}
