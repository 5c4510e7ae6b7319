package io.pushline.reminders;

import io.pushline.common.HBaseTables;
import io.pushline.schema.reminders.ReminderMirror;
import java.io.IOException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Mirrors reminders into the HBase {@code reminders} table for the pull endpoint ({@code pushline
 * serve}): row {@code t:<taskId>} holds the task (fireAt, zone, title, body, status, and the
 * subscriber and pull counts as of the last watermark), row {@code u:<uid>} a column per task the
 * uid subscribed to. Cells carry the event time, so a replay after a failure rewrites the same
 * cells (at-least-once delivery, exactly-once result) and a delete is not undone by an older put. A
 * subscription's cell expires a week after its task's fireAt: the table does not keep every
 * subscription ever made.
 */
public class HBaseReminderSink implements Sink<ReminderMirror> {
    private static final long serialVersionUID = 1L;

    /** How long after fireAt a subscription's cell is kept. */
    static final long KEEP_AFTER_FIRE_MS = 7 * 86_400_000L;

    private final String quorum;
    private final String namespace;

    public HBaseReminderSink(String quorum, String namespace) {
        this.quorum = quorum;
        this.namespace = namespace;
    }

    @Override
    public SinkWriter<ReminderMirror> createWriter(WriterInitContext context) throws IOException {
        Counter written = context.metricGroup().addGroup("hbase", "reminders").counter("mutations");
        return new Writer(quorum, namespace, written);
    }

    static final class Writer implements SinkWriter<ReminderMirror> {
        private final Connection connection;
        private final BufferedMutator table;
        private final Counter written;

        Writer(String quorum, String namespace, Counter written) throws IOException {
            this.connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            this.table = connection.getBufferedMutator(HBaseTables.reminders(namespace));
            this.written = written;
        }

        @Override
        public void write(ReminderMirror m, Context context) throws IOException {
            long ts = Math.max(0, m.ts);
            switch (m.kind) {
                case ReminderMirror.TASK:
                    Put t = new Put(HBaseTables.reminderTaskRow(m.taskId), ts);
                    add(t, "fireAt", Long.toString(m.fireAt));
                    add(t, "zone", m.zone);
                    add(t, "title", m.title);
                    add(t, "body", m.body);
                    add(t, "status", m.status);
                    table.mutate(t);
                    break;
                case ReminderMirror.COUNTS:
                    Put c = new Put(HBaseTables.reminderTaskRow(m.taskId), ts);
                    add(c, "subscribers", Long.toString(m.subscribers));
                    add(c, "pulled", Long.toString(m.pulled));
                    table.mutate(c);
                    break;
                case ReminderMirror.SUBSCRIBED:
                    Put s = new Put(HBaseTables.reminderUidRow(m.uid), ts);
                    add(s, m.taskId, Long.toString(m.fireAt));
                    s.setTTL(Math.max(1, m.fireAt + KEEP_AFTER_FIRE_MS - ts));
                    table.mutate(s);
                    break;
                default:
                    table.mutate(
                            new Delete(HBaseTables.reminderUidRow(m.uid))
                                    .addColumns(HBaseTables.FAMILY, Bytes.toBytes(m.taskId), ts));
            }
            written.inc();
        }

        private static void add(Put p, String column, String value) {
            p.addColumn(
                    HBaseTables.FAMILY,
                    Bytes.toBytes(column),
                    Bytes.toBytes(value == null ? "" : value));
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            table.flush();
        }

        @Override
        public void close() throws Exception {
            try {
                table.close();
            } finally {
                connection.close();
            }
        }
    }
}
