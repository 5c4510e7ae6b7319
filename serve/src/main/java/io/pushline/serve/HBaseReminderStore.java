package io.pushline.serve;

import io.pushline.common.HBaseTables;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.reminders.ReminderTask;
import io.pushline.schema.reminders.ReminderTimes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Reads the reminders the dispatch job mirrors to HBase (row {@code u:<uid>}: a column per
 * subscribed task; row {@code t:<taskId>}: the task) and records pulls as {@code pull} events on
 * {@code reminder.subscriptions}, where the dispatch job applies them like any other: a pulled
 * subscriber is not pushed.
 */
public final class HBaseReminderStore implements ReminderStore {
    /** Tasks a uid may have listed at most, so that one row cannot make a response huge. */
    static final int MAX_TASKS = 1_000;

    private final Connection connection;
    private final Table table;
    private final KafkaProducer<String, String> producer;

    public HBaseReminderStore(Connection connection, String namespace, Properties kafka)
            throws IOException {
        this.connection = connection;
        this.table = connection.getTable(HBaseTables.reminders(namespace));
        this.producer = KafkaClients.producer(kafka, 2);
    }

    @Override
    public List<PullableTask> pullable(String uid, long now, long marginMs, long windowMs)
            throws IOException {
        Result subscriptions = table.get(new Get(HBaseTables.reminderUidRow(uid)));
        NavigableMap<byte[], byte[]> cells = subscriptions.getFamilyMap(HBaseTables.FAMILY);
        if (cells == null || cells.isEmpty()) {
            return List.of();
        }
        List<Get> gets = new ArrayList<>();
        for (byte[] taskId : cells.keySet()) {
            if (gets.size() >= MAX_TASKS) {
                break;
            }
            gets.add(new Get(HBaseTables.reminderTaskRow(Bytes.toString(taskId))));
        }
        List<PullableTask> out = new ArrayList<>();
        for (Result r : table.get(gets)) {
            ReminderTask t = task(r);
            if (t == null || !t.isOpen()) {
                continue;
            }
            boolean frozen = now >= ReminderTimes.freeze(t.fireAt, t.zone);
            if (frozen && t.fireAt > now + marginMs && t.fireAt <= now + windowMs) {
                out.add(new PullableTask(t.taskId, t.fireAt, t.title, t.body));
            }
        }
        out.sort(
                Comparator.comparingLong(PullableTask::fireAt).thenComparing(PullableTask::taskId));
        return out;
    }

    /** The task of a {@code t:} row, or null when the row is missing or unreadable. */
    private static ReminderTask task(Result r) {
        if (r == null || r.isEmpty()) {
            return null;
        }
        try {
            ReminderTask t = new ReminderTask();
            t.taskId = Bytes.toString(r.getRow()).substring(2);
            t.fireAt = Long.parseLong(text(r, "fireAt"));
            t.zone = text(r, "zone");
            t.title = text(r, "title");
            t.body = text(r, "body");
            t.status = text(r, "status");
            ReminderTimes.freeze(t.fireAt, t.zone); // a bad zone: skip the row
            return t;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String text(Result r, String column) {
        byte[] v = r.getValue(HBaseTables.FAMILY, Bytes.toBytes(column));
        if (v == null) {
            throw new IllegalStateException("no " + column);
        }
        return Bytes.toString(v);
    }

    @Override
    public void recordPulls(String uid, List<PullableTask> tasks, long now) throws IOException {
        List<Future<RecordMetadata>> sent = new ArrayList<>(tasks.size());
        for (PullableTask t : tasks) {
            Map<String, Object> pull = new LinkedHashMap<>();
            pull.put("ts", now);
            pull.put("type", "pull");
            pull.put("taskId", t.taskId());
            pull.put("uid", uid);
            sent.add(
                    producer.send(
                            new ProducerRecord<>(
                                    Topics.REMINDER_SUBSCRIPTIONS, t.taskId(), Json.write(pull))));
        }
        try {
            for (Future<RecordMetadata> f : sent) {
                f.get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IOException("could not record the pulls on Kafka: " + e, e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            producer.close();
            table.close();
        } finally {
            connection.close();
        }
    }
}
