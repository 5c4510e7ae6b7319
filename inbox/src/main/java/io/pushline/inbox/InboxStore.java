package io.pushline.inbox;

import static io.pushline.inbox.InboxRows.F;
import static io.pushline.inbox.InboxRows.MEMBER;
import static io.pushline.inbox.InboxRows.READ;
import static io.pushline.inbox.InboxRows.SENT;
import static io.pushline.inbox.InboxRows.VERSION;
import static io.pushline.inbox.InboxRows.bitmap;
import static io.pushline.inbox.InboxRows.row;
import static io.pushline.inbox.InboxRows.trusted;
import static io.pushline.inbox.InboxRows.userRow;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.common.SharedTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.ImmutableBitmapDataProvider;
import org.roaringbitmap.RoaringBitmap;

/**
 * Inboxes in HBase. A message gets a dense int id from the {@code inbox_ids} dictionary and is
 * stored once (row {@code m:<id>}; the first request of a msgId wins). A uid's inbox is one row
 * {@code u:<uid>} with two Roaring bitmaps of message ids, sent and read, changed by
 * check-and-mutate on a version cell, so the dispatch job's writers and the HTTP server can change
 * the same inbox concurrently without losing a change. One store serves many threads (the HTTP
 * server's): its caches are synchronized and its HBase calls each take a table of their own. A
 * broadcast is stored once with its audience bitmap (over the uid dictionary's ids, rows {@code
 * a:<id><chunk>}) and its row {@code b:<id>}; reading an inbox merges in the broadcasts whose
 * audience holds the uid, so a message to ten million users costs the writes of a message to one,
 * and "read all" is one write.
 *
 * <p>Retention: every cell carries an HBase TTL, a message's the time until it leaves the inbox and
 * an inbox row's the retention, renewed by each change; a change also drops the ids of messages
 * that have left, so ids stop costing space. All changes are idempotent (set unions), so a writer
 * that replays after a failure changes nothing twice.
 */
public final class InboxStore implements AutoCloseable {
    private static final int MAX_ATTEMPTS = 50;

    private final SharedTable table;
    private final IdDictionary uidIds;
    private final long retentionMs;
    private final LongSupplier clock;
    private final Messages messages;
    private volatile InboxCache cache;
    private final Broadcasts broadcasts;

    public InboxStore(
            Connection connection, String namespace, Duration retention, LongSupplier clock)
            throws IOException {
        this.table = new SharedTable(connection, TableName.valueOf(namespace, HBaseTables.INBOX));
        this.messages =
                new Messages(
                        table,
                        new IdDictionary(
                                connection,
                                TableName.valueOf(namespace, HBaseTables.INBOX_IDS),
                                100_000));
        this.uidIds = new IdDictionary(connection, namespace, 100_000);
        this.broadcasts = new Broadcasts(table, uidIds, clock);
        this.retentionMs = retention.toMillis();
        this.clock = clock;
    }

    /**
     * How a read went: the unread count after it, the msgIds not in the inbox, and the messages of
     * the inbox it marked (read before or not).
     */
    public record ReadResult(long unread, List<String> ignored, List<Message> marked) {}

    /** A message's state in one inbox. */
    public record Status(boolean readable, boolean read) {}

    /** One message for one inbox, for {@link #addAll}. */
    public record Add(String uid, String msgId, String title, String body, long ts) {}

    /** Adds a message to {@code uid}'s inbox; nothing when it has it already or it has expired. */
    public void add(String uid, String msgId, String title, String body, long ts)
            throws IOException {
        addAll(List.of(new Add(uid, msgId, title, body, ts)));
    }

    /**
     * Adds each message to its uid's inbox, as {@link #add} one at a time would, with a few round
     * trips for the whole list instead of a few per message: each message stored once, the rows
     * read in one batch and written in one batch of check-and-mutates (a row another writer changed
     * meanwhile is read and written again).
     */
    public void addAll(List<Add> adds) throws IOException {
        // each message stored once, from its earliest request in the batch
        Map<String, Add> first = new LinkedHashMap<>();
        for (Add a : adds) {
            first.merge(a.msgId(), a, (had, next) -> next.ts() < had.ts() ? next : had);
        }
        Map<String, Integer> ids = new HashMap<>();
        for (Add a : first.values()) {
            ids.put(a.msgId(), store(a.msgId(), a.title(), a.body(), a.ts())); // null: expired
        }
        Map<String, RoaringBitmap> byUid = new LinkedHashMap<>();
        for (Add a : adds) {
            Integer id = ids.get(a.msgId());
            if (id != null) {
                byUid.computeIfAbsent(a.uid(), u -> new RoaringBitmap()).add(id);
            }
        }
        Map<String, UnaryOperator<Bitmaps>> changes = new LinkedHashMap<>();
        byUid.forEach(
                (uid, sent) ->
                        changes.put(
                                uid,
                                b -> {
                                    if (RoaringBitmap.andNot(sent, b.sent).isEmpty()) {
                                        return null;
                                    }
                                    b.sent.or(sent);
                                    return b;
                                }));
        updateAll(changes);
    }

    /**
     * Stores a message once for an audience (ids of the uid dictionary): its members find it in
     * their inboxes. A msgId broadcast before keeps its first audience.
     */
    public void broadcast(String msgId, String title, String body, long ts, IdSet audience)
            throws IOException {
        Integer id = store(msgId, title, body, ts);
        if (id != null) {
            broadcasts.write(id, ts, ttl(ts), audience);
        }
    }

    /** Reads inboxes from {@code cache} while it is on, and tells it the rows this store writes. */
    public void cacheIn(InboxCache cache) {
        this.cache = cache;
    }

    /** The uid's inbox now. */
    public InboxView view(String uid) throws IOException {
        InboxCache c = cache;
        InboxCache.Row row = c == null ? null : c.get(uid);
        ImmutableBitmapDataProvider sent;
        ImmutableBitmapDataProvider read;
        Integer member;
        if (row != null) {
            // validated when it was read from HBase
            sent = trusted(row.sent());
            read = trusted(row.read());
            member = row.member() < 0 ? null : row.member();
        } else {
            Result r = table.get(new Get(userRow(uid)));
            sent = bitmap(r, SENT);
            read = bitmap(r, READ);
            byte[] m = r.getValue(F, MEMBER);
            member = m == null ? null : Bytes.toInt(m);
        }
        long oldest = oldest();
        int[] ids = InboxRows.union(sent, broadcasts.holding(uid, member, oldest));
        return new InboxView(messages.inIdOrder(ids), read, oldest);
    }

    /**
     * The uid's inbox now if this process holds all of it in memory (its cached row, the live
     * broadcasts and their audiences, its messages); null when a read from HBase would be needed,
     * then {@link #view} answers. Never blocks on I/O, so a server may call it on a network thread.
     */
    public InboxView viewInMemory(String uid) {
        InboxCache c = cache;
        InboxCache.Row row = c == null ? null : c.getIfHit(uid);
        if (row == null || row.member() < 0) {
            return null;
        }
        long oldest = oldest();
        int[] holding = broadcasts.holdingInMemory(row.member(), oldest);
        if (holding == null) {
            return null;
        }
        int[] ids = InboxRows.union(trusted(row.sent()), holding);
        List<Message> found = messages.inIdOrderInMemory(ids);
        return found == null ? null : new InboxView(found, trusted(row.read()), oldest);
    }

    /** The rows of {@code uids} as stored now, validated; null for a uid without one. */
    public List<InboxCache.Row> rows(List<String> uids) throws IOException {
        List<Get> gets = new ArrayList<>(uids.size());
        for (String uid : uids) {
            gets.add(new Get(userRow(uid)));
        }
        Result[] found = table.get(gets);
        List<InboxCache.Row> out = new ArrayList<>(found.length);
        for (Result r : found) {
            out.add(row(r));
        }
        return out;
    }

    /**
     * Hands every inbox row to {@code into} (uid, row), in row order, until it answers false;
     * returns the rows handed.
     */
    public long scanRows(BiPredicate<String, InboxCache.Row> into) throws IOException {
        long n = 0;
        Scan scan =
                new Scan()
                        .setRowPrefixFilter(Bytes.toBytes("u:"))
                        .addColumn(F, SENT)
                        .addColumn(F, READ)
                        .addColumn(F, MEMBER)
                        .addColumn(F, VERSION)
                        .setCaching(1_000);
        try (ResultScanner rows = table.getScanner(scan)) {
            for (Result r : rows) {
                InboxCache.Row row = row(r);
                if (row == null) {
                    continue;
                }
                n++;
                if (!into.test(Bytes.toString(r.getRow(), 2, r.getRow().length - 2), row)) {
                    break;
                }
            }
        }
        return n;
    }

    /** Marks {@code ids} read; those not in the inbox are ignored and listed. */
    public ReadResult read(String uid, List<String> ids) throws IOException {
        InboxView view = view(uid);
        RoaringBitmap reading = new RoaringBitmap();
        List<String> ignored = new ArrayList<>();
        for (String msgId : ids) {
            Integer id = messages.idOf(msgId);
            if (id != null && view.contains(id)) {
                reading.add(id);
            } else {
                ignored.add(msgId);
            }
        }
        markRead(uid, reading);
        List<Message> marked = new ArrayList<>(reading.getCardinality());
        for (Message m : view.messages()) {
            if (reading.contains(m.id())) {
                marked.add(m);
            }
        }
        return new ReadResult(view.unreadAfter(reading), ignored, marked);
    }

    /** Marks every message the inbox has now read: one write, whatever their number. */
    public ReadResult readAll(String uid) throws IOException {
        InboxView view = view(uid);
        markRead(uid, view.ids());
        return new ReadResult(0, List.of(), view.messages());
    }

    /** A message's state in {@code uid}'s inbox. */
    public Status status(String uid, String msgId) throws IOException {
        Integer id = messages.idOf(msgId);
        if (id == null) {
            return new Status(false, false);
        }
        InboxView view = view(uid);
        return new Status(view.contains(id), view.isRead(id));
    }

    private void markRead(String uid, RoaringBitmap ids) throws IOException {
        if (ids.isEmpty()) {
            return;
        }
        update(
                uid,
                b -> {
                    if (RoaringBitmap.andNot(ids, b.read).isEmpty()) {
                        return null;
                    }
                    b.read.or(ids);
                    return b;
                });
    }

    /**
     * Writes whole inboxes at once, for a backfill or a benchmark's setup: each uid's {@code sent}
     * bitmap (ids from {@link #store}) replaces its row, without check-and-mutate. Only for uids no
     * one else writes meanwhile. Uids the dictionary does not know get their ids.
     */
    public void load(Map<String, RoaringBitmap> sent) throws IOException {
        List<Put> puts = new ArrayList<>(sent.size());
        Map<String, Integer> members = uidIds.assignAll(new ArrayList<>(sent.keySet()));
        for (Map.Entry<String, RoaringBitmap> e : sent.entrySet()) {
            puts.add(
                    new Put(userRow(e.getKey()))
                            .addColumn(F, SENT, IdSet.wrap(e.getValue()).toBytes())
                            .addColumn(F, READ, IdSet.wrap(new RoaringBitmap()).toBytes())
                            .addColumn(F, VERSION, Bytes.toBytes(1L))
                            .addColumn(F, MEMBER, Bytes.toBytes(members.get(e.getKey())))
                            .setTTL(retentionMs));
        }
        table.put(puts);
    }

    /**
     * Stores a message (the first request of a msgId wins) and returns its id; null when it has
     * already left every inbox.
     */
    public Integer store(String msgId, String title, String body, long ts) throws IOException {
        long ttl = ttl(ts);
        if (ttl <= 0) {
            return null;
        }
        return messages.store(msgId, title, body, ts, ttl);
    }

    /**
     * Ids of the messages whose entry this store replaced (an earlier request of the msgId came
     * after a later one) since the last call; servers that cache them are to be told.
     */
    public List<Integer> takeReplaced() {
        return messages.takeReplaced();
    }

    /** Drops message {@code id} from the caches: its stored entry changed. */
    public void forgetMessage(int id) {
        messages.forget(id);
    }

    /** Sent and read of one inbox, as a change sees them. */
    private static final class Bitmaps {
        final RoaringBitmap sent;
        final RoaringBitmap read;

        Bitmaps(RoaringBitmap sent, RoaringBitmap read) {
            this.sent = sent;
            this.read = read;
        }
    }

    /**
     * Applies {@code change} (null from it: nothing to do) to the inbox row with check-and-mutate
     * on its version, retrying when another writer came first; drops ids of messages that left.
     */
    private void update(String uid, UnaryOperator<Bitmaps> change) throws IOException {
        updateAll(Map.of(uid, change));
    }

    /** {@link #update} for many rows at once: one batched read and one batched write a round. */
    private void updateAll(Map<String, UnaryOperator<Bitmaps>> changes) throws IOException {
        Map<String, UnaryOperator<Bitmaps>> pending = new LinkedHashMap<>(changes);
        for (int attempt = 0; attempt < MAX_ATTEMPTS && !pending.isEmpty(); attempt++) {
            List<String> uids = new ArrayList<>(pending.keySet());
            List<Get> gets = new ArrayList<>(uids.size());
            for (String uid : uids) {
                gets.add(new Get(userRow(uid)));
            }
            Result[] rows = table.get(gets);
            List<String> noMember = new ArrayList<>();
            for (int i = 0; i < rows.length; i++) {
                if (rows[i].getValue(F, MEMBER) == null) {
                    noMember.add(uids.get(i));
                }
            }
            Map<String, Integer> members = uidIds.idsOf(noMember);
            List<CheckAndMutate> writes = new ArrayList<>();
            List<String> writing = new ArrayList<>();
            List<InboxCache.Row> written = new ArrayList<>();
            for (int i = 0; i < rows.length; i++) {
                String uid = uids.get(i);
                Result r = rows[i];
                byte[] version = r.getValue(F, VERSION);
                Bitmaps b = pending.get(uid).apply(new Bitmaps(bitmap(r, SENT), bitmap(r, READ)));
                if (b == null) {
                    pending.remove(uid);
                    continue;
                }
                RoaringBitmap left = expired(RoaringBitmap.or(b.sent, b.read));
                b.sent.andNot(left);
                b.read.andNot(left);
                long next = version == null ? 1 : Bytes.toLong(version) + 1;
                byte[] sentBytes = IdSet.wrap(b.sent).toBytes();
                byte[] readBytes = IdSet.wrap(b.read).toBytes();
                Put put =
                        new Put(userRow(uid))
                                .addColumn(F, SENT, sentBytes)
                                .addColumn(F, READ, readBytes)
                                .addColumn(F, VERSION, Bytes.toBytes(next))
                                .setTTL(retentionMs);
                byte[] member = r.getValue(F, MEMBER);
                Integer id =
                        member != null ? Integer.valueOf(Bytes.toInt(member)) : members.get(uid);
                if (id != null) {
                    put.addColumn(F, MEMBER, Bytes.toBytes(id));
                }
                CheckAndMutate.Builder when = CheckAndMutate.newBuilder(userRow(uid));
                writes.add(
                        version == null
                                ? when.ifNotExists(F, VERSION).build(put)
                                : when.ifEquals(F, VERSION, version).build(put));
                writing.add(uid);
                written.add(new InboxCache.Row(sentBytes, readBytes, id == null ? -1 : id, next));
            }
            if (writes.isEmpty()) {
                continue;
            }
            List<CheckAndMutateResult> results = table.checkAndMutate(writes);
            InboxCache c = cache;
            for (int j = 0; j < results.size(); j++) {
                if (results.get(j).isSuccess()) {
                    pending.remove(writing.get(j));
                    if (c != null) {
                        c.written(writing.get(j), written.get(j));
                    }
                }
            }
        }
        if (!pending.isEmpty()) {
            throw new IOException(
                    "inbox of uid changed by other writers " + MAX_ATTEMPTS + " times in a row");
        }
    }

    /** The ids among {@code ids} whose messages have left the inbox. */
    private RoaringBitmap expired(RoaringBitmap ids) throws IOException {
        Map<Integer, Message> stored = messages.of(ids);
        long oldest = oldest();
        RoaringBitmap out = new RoaringBitmap();
        for (int id : ids) {
            Message m = stored.get(id);
            if (m == null || m.ts() < oldest) {
                out.add(id);
            }
        }
        return out;
    }

    private long oldest() {
        return clock.getAsLong() - retentionMs;
    }

    /** Milliseconds until a message of time {@code ts} leaves every inbox (saturated). */
    private long ttl(long ts) {
        long leaves = ts > Long.MAX_VALUE - retentionMs ? Long.MAX_VALUE : ts + retentionMs;
        return leaves - clock.getAsLong();
    }

    /**
     * How many rows of the inbox table start with {@code prefix} ({@code u:} inboxes, {@code m:}
     * messages, {@code b:} broadcasts, {@code a:} audience chunks): for checks and benchmarks.
     */
    public long rows(String prefix) throws IOException {
        long n = 0;
        Scan scan =
                new Scan()
                        .setRowPrefixFilter(Bytes.toBytes(prefix))
                        .setFilter(new org.apache.hadoop.hbase.filter.KeyOnlyFilter())
                        .setCaching(10_000);
        try (ResultScanner rows = table.getScanner(scan)) {
            for (Result ignored : rows) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        try {
            messages.close();
        } finally {
            uidIds.close();
        }
    }
}
