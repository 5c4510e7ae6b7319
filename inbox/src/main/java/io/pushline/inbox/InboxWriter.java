package io.pushline.inbox;

import io.pushline.audience.Audiences;
import io.pushline.audience.NoSuchAudienceException;
import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.inbox.InboxRead;
import io.pushline.schema.inbox.InboxState;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatch job's inbox writer, keyed by {@link InboxOp#key()} (a uid's changes come from one
 * subtask, in order): applies each change to HBase ({@link InboxStore}) and emits an {@link
 * InboxRead} the first time a uid reads a message, for the receipts job's "read in inbox". Every
 * HBase change is a set union, so the replay after a restore changes nothing twice; which reads
 * were reported is keyed state checkpointed with the output, so each is counted once. A broadcast's
 * audience expression is evaluated here, over the segments of that moment, and stored once. Each
 * uid whose row it wrote goes to {@link DispatchTags#INBOX_CHANGES}, for servers that cache rows.
 *
 * <p>Adds are the bulk (a request to a list of uids is one per uid) and are written in batches, a
 * few HBase round trips per batch instead of a few per add: they wait in memory until {@link
 * #BATCH} of them are there, another kind of change comes (so that a uid's changes keep their
 * order), or {@link InboxWriterOperator} flushes them, at latest {@link
 * InboxWriterOperator#MAX_WAIT_MS} after the first and always before a checkpoint barrier.
 *
 * <p>An HBase failure fails the job (it restarts from its checkpoint and replays); a record that
 * makes the code throw anything else is a dead letter ({@link DispatchTags#DEAD_LETTERS}).
 */
public class InboxWriter extends KeyedProcessFunction<String, InboxOp, InboxRead> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(InboxWriter.class);

    /** Most adds written in one batch. */
    static final int BATCH = 1_000;

    private final String hbase;
    private final String namespace;
    private final Duration retention;
    private final Audiences.Factory audiences;

    private transient Connection connection;
    private transient InboxStore store;
    private transient Audiences evaluator;
    private transient ValueState<byte[]> reported;
    private transient MetricGroup metrics;
    private transient Map<String, Counter> ops;
    private transient Counter skipped;
    private transient Counter reads;
    private transient Counter deadLetters;
    private transient Counter batches;
    private transient Counter replaced;
    private transient long failures;
    private transient List<InboxOp> adds;

    /**
     * @param audiences evaluates broadcasts' expressions; null: broadcasts are skipped
     */
    public InboxWriter(
            String hbase, String namespace, Duration retention, Audiences.Factory audiences) {
        this.hbase = hbase;
        this.namespace = namespace;
        this.retention = retention;
        this.audiences = audiences;
    }

    @Override
    public void open(OpenContext context) throws IOException {
        connection = ConnectionFactory.createConnection(HBaseTables.clientConf(hbase));
        store = new InboxStore(connection, namespace, retention, System::currentTimeMillis);
        evaluator = audiences == null ? null : audiences.open();
        reported = getRuntimeContext().getState(InboxState.reportedReads(retention));
        metrics = getRuntimeContext().getMetricGroup().addGroup("inbox");
        ops = new HashMap<>();
        skipped = metrics.counter("broadcastsSkipped");
        reads = metrics.counter("readsReported");
        deadLetters = metrics.counter("deadLetters");
        batches = metrics.counter("addBatches");
        replaced = metrics.counter("messagesReplaced");
        adds = new ArrayList<>();
    }

    /** Where a flush tells what it did: a record's outputs outside {@code processElement}. */
    interface Outputs {
        void change(InboxChange change);

        void deadLetter(DeadLetter letter);
    }

    @Override
    public void processElement(InboxOp op, Context ctx, Collector<InboxRead> out)
            throws IOException {
        Outputs outputs = outputs(ctx);
        if (InboxOp.ADD.equals(op.kind)) {
            adds.add(op);
            if (adds.size() >= BATCH) {
                flush(outputs);
            }
            return;
        }
        flush(outputs); // the uid's adds before its read
        try {
            if (apply(op, out)) {
                // also when the change was there already (a replay): the notice may be what the
                // failure lost
                outputs.change(InboxChange.of(System.currentTimeMillis(), op.uid));
            }
        } catch (IOException e) {
            throw e; // the store did not answer: restart and replay
        } catch (Throwable t) {
            outputs.deadLetter(deadLetter(op, t));
        }
        tellReplaced(outputs, System.currentTimeMillis());
    }

    /** Adds waiting for their batch. */
    int waiting() {
        return adds.size();
    }

    /** Writes the adds that wait, in one batch. */
    void flush(Outputs outputs) throws IOException {
        if (adds.isEmpty()) {
            return;
        }
        List<InboxOp> batch = adds;
        adds = new ArrayList<>();
        List<InboxStore.Add> all = new ArrayList<>(batch.size());
        for (InboxOp op : batch) {
            all.add(new InboxStore.Add(op.uid, op.msgId, op.title, op.body, op.msgTs));
        }
        try {
            store.addAll(all);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            RecordFailure.rethrowIfNotTheRecords(t);
            // one of them makes the code throw: find it, one at a time
            addOneByOne(batch, outputs);
            return;
        }
        Set<String> uids = new LinkedHashSet<>();
        for (InboxOp op : batch) {
            uids.add(op.uid);
        }
        long now = System.currentTimeMillis();
        for (String uid : uids) {
            outputs.change(InboxChange.of(now, uid));
        }
        counter(InboxOp.ADD).inc(batch.size());
        batches.inc();
        tellReplaced(outputs, now);
    }

    /**
     * A notice for each message whose entry an earlier request of its msgId replaced: servers drop
     * their copy.
     */
    private void tellReplaced(Outputs outputs, long now) {
        for (int id : store.takeReplaced()) {
            replaced.inc();
            outputs.change(InboxChange.message(now, id));
        }
    }

    private void addOneByOne(List<InboxOp> batch, Outputs outputs) throws IOException {
        for (InboxOp op : batch) {
            try {
                store.add(op.uid, op.msgId, op.title, op.body, op.msgTs);
                counter(InboxOp.ADD).inc();
                outputs.change(InboxChange.of(System.currentTimeMillis(), op.uid));
            } catch (IOException e) {
                throw e;
            } catch (Throwable t) {
                outputs.deadLetter(deadLetter(op, t));
            }
        }
        tellReplaced(outputs, System.currentTimeMillis());
    }

    private DeadLetter deadLetter(InboxOp op, Throwable t) {
        deadLetters.inc();
        return deadLetterOf(op, t, ++failures);
    }

    /**
     * The dead letter of an op the store threw on: its position is the op's kind and message, never
     * its uid (a position is not masked), and its raw text is masked as every dead letter's.
     */
    static DeadLetter deadLetterOf(InboxOp op, Throwable t, long failure) {
        return RecordFailure.deadLetter(
                "inbox-writer", op.kind + " " + op.msgId, () -> Json.write(op), t, failure);
    }

    private Counter counter(String kind) {
        return ops.computeIfAbsent(kind, k -> metrics.addGroup("kind", k).counter("ops"));
    }

    private static Outputs outputs(Context ctx) {
        return new Outputs() {
            @Override
            public void change(InboxChange change) {
                ctx.output(DispatchTags.INBOX_CHANGES, change);
            }

            @Override
            public void deadLetter(DeadLetter letter) {
                ctx.output(DispatchTags.DEAD_LETTERS, letter);
            }
        };
    }

    /** Applies {@code op}; whether it concerns one uid's row (to be told on inbox.changes). */
    private boolean apply(InboxOp op, Collector<InboxRead> out) throws IOException {
        boolean row = true;
        switch (op.kind) {
            case InboxOp.ADD:
                store.add(op.uid, op.msgId, op.title, op.body, op.msgTs);
                break;
            case InboxOp.BROADCAST:
                // stored once, not in any row: servers see it in the list of broadcasts
                broadcast(op);
                row = false;
                break;
            case InboxOp.READ:
                report(op, store.read(op.uid, op.msgIds).marked(), out);
                break;
            case InboxOp.READ_ALL:
                report(op, store.readAll(op.uid).marked(), out);
                break;
            default:
                return false;
        }
        counter(op.kind).inc();
        return row;
    }

    /** One {@link InboxRead} per message the uid reads for the first time. */
    private void report(InboxOp op, List<Message> marked, Collector<InboxRead> out)
            throws IOException {
        if (marked.isEmpty()) {
            return;
        }
        byte[] bytes = reported.value();
        RoaringBitmap done =
                bytes == null ? new RoaringBitmap() : IdSet.fromBytes(bytes).unwrap().clone();
        boolean changed = false;
        for (Message m : marked) {
            if (done.checkedAdd(m.id())) {
                out.collect(InboxRead.of(op.ts, m.msgId(), op.uid));
                reads.inc();
                changed = true;
            }
        }
        if (changed) {
            reported.update(IdSet.wrap(done).toBytes());
        }
    }

    private void broadcast(InboxOp op) throws IOException {
        if (evaluator == null) {
            skipped.inc();
            return;
        }
        try {
            String expression =
                    op.savedAudience == null
                            ? op.audience
                            : evaluator.saved(op.savedAudience).expression;
            store.broadcast(op.msgId, op.title, op.body, op.msgTs, evaluator.evaluate(expression));
        } catch (ExpressionException | NoSuchAudienceException e) {
            // the campaign itself dead-letters the request with the reason
            skipped.inc();
            LOG.warn("inbox broadcast {} skipped: {}", op.msgId, e.getMessage());
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (evaluator != null) {
                evaluator.close();
            }
            if (store != null) {
                store.close();
            }
        } finally {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
