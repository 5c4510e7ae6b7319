package io.pushline.inbox;

import io.pushline.audience.Audiences;
import io.pushline.audience.ExpressionException;
import io.pushline.common.HBaseTables;
import io.pushline.schema.inbox.InboxOp;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the dispatch job's inbox changes to HBase ({@link InboxStore}). Every change is a set
 * union, so the at-least-once replay after a failure leaves the inboxes as one pass would. Give it
 * a stream keyed by {@link InboxOp#key()}: a uid's changes then come from one writer, in order. A
 * broadcast's audience expression is evaluated here, over the segments of that moment, and stored
 * once.
 */
public class InboxSink implements Sink<InboxOp> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(InboxSink.class);

    private final String hbase;
    private final String namespace;
    private final Duration retention;
    private final Audiences.Factory audiences;

    /**
     * @param audiences evaluates broadcasts' expressions; null: broadcasts are skipped
     */
    public InboxSink(
            String hbase, String namespace, Duration retention, Audiences.Factory audiences) {
        this.hbase = hbase;
        this.namespace = namespace;
        this.retention = retention;
        this.audiences = audiences;
    }

    @Override
    public SinkWriter<InboxOp> createWriter(WriterInitContext context) throws IOException {
        return new Writer(context.metricGroup().addGroup("inbox"));
    }

    final class Writer implements SinkWriter<InboxOp> {
        private final Connection connection;
        private final InboxStore store;
        private final Audiences evaluator;
        private final MetricGroup metrics;
        private final Map<String, Counter> ops = new HashMap<>();
        private final Counter skipped;

        Writer(MetricGroup metrics) throws IOException {
            this.connection = ConnectionFactory.createConnection(HBaseTables.clientConf(hbase));
            this.store =
                    new InboxStore(connection, namespace, retention, System::currentTimeMillis);
            this.evaluator = audiences == null ? null : audiences.open();
            this.metrics = metrics;
            this.skipped = metrics.counter("broadcastsSkipped");
        }

        @Override
        public void write(InboxOp op, Context context) throws IOException {
            switch (op.kind) {
                case InboxOp.ADD:
                    store.add(op.uid, op.msgId, op.title, op.body, op.msgTs);
                    break;
                case InboxOp.BROADCAST:
                    broadcast(op);
                    break;
                case InboxOp.READ:
                    store.read(op.uid, op.msgIds);
                    break;
                case InboxOp.READ_ALL:
                    store.readAll(op.uid);
                    break;
                default:
                    return;
            }
            ops.computeIfAbsent(op.kind, k -> metrics.addGroup("kind", k).counter("ops")).inc();
        }

        private void broadcast(InboxOp op) throws IOException {
            if (evaluator == null) {
                skipped.inc();
                return;
            }
            try {
                store.broadcast(
                        op.msgId, op.title, op.body, op.msgTs, evaluator.evaluate(op.audience));
            } catch (ExpressionException e) {
                // the campaign itself dead-letters the request with the reason
                skipped.inc();
                LOG.warn("inbox broadcast {} skipped: {}", op.msgId, e.getMessage());
            }
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() throws Exception {
            try {
                if (evaluator != null) {
                    evaluator.close();
                }
                store.close();
            } finally {
                connection.close();
            }
        }
    }
}
