package io.pushline.serve;

import io.pushline.common.HBaseTables;
import io.pushline.schema.reminders.ReminderTask;
import io.pushline.schema.reminders.ReminderTimes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads the reminders the dispatch job mirrors to HBase (row {@code u:<uid>}: a column per
 * subscribed task; row {@code t:<taskId>}: the task and its counts). Pulls are not recorded here:
 * {@code POST /v1/reminders/{uid}/pull} writes them as lines ({@link WriteApi}).
 */
public final class HBaseReminderStore implements ReminderStore {
    /** Tasks a uid may have listed at most, so that one row cannot make a response huge. */
    static final int MAX_TASKS = 1_000;

    private final Connection connection;
    private final Table table;

    public HBaseReminderStore(Connection connection, String namespace) throws IOException {
        this.connection = connection;
        this.table = connection.getTable(HBaseTables.reminders(namespace));
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
    public TaskView task(String taskId) throws IOException {
        Result r = table.get(new Get(HBaseTables.reminderTaskRow(taskId)));
        ReminderTask t = task(r);
        if (t == null) {
            return null;
        }
        return new TaskView(
                t.taskId,
                t.fireAt,
                t.zone,
                t.title,
                t.body,
                t.status,
                count(r, "subscribers"),
                count(r, "pulled"));
    }

    private static long count(Result r, String column) {
        byte[] v = r.getValue(HBaseTables.FAMILY, Bytes.toBytes(column));
        try {
            return v == null ? 0 : Long.parseLong(Bytes.toString(v));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            table.close();
        } finally {
            connection.close();
        }
    }
}
