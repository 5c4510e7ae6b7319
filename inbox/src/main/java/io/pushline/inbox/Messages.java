package io.pushline.inbox;

import io.pushline.audience.IdDictionary;
import io.pushline.common.SharedTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The inbox's messages, each stored once: a dense int id from the {@code inbox_ids} dictionary and
 * row {@code m:<id>} (msgId, title, body, time), written by the first request of a msgId. Messages
 * never change once written, so they are cached by id; a row gone (its TTL passed) is a message
 * that has left every inbox.
 */
final class Messages implements AutoCloseable {
    private static final byte[] F = InboxStore.F;
    private static final byte[] TS = InboxStore.TS;
    private static final byte[] MSG_ID = Bytes.toBytes("msgId");
    private static final byte[] TITLE = Bytes.toBytes("title");
    private static final byte[] BODY = Bytes.toBytes("body");

    private final SharedTable table;
    private final IdDictionary ids;
    private final BoundedCache<Integer, Message> cache = new BoundedCache<>(100_000);

    Messages(SharedTable table, IdDictionary ids) {
        this.table = table;
        this.ids = ids;
    }

    /** The id of {@code msgId}, or null when no message had it. */
    Integer idOf(String msgId) throws IOException {
        return ids.idOf(msgId);
    }

    /** Stores a message unless its msgId has one (the first request wins); returns its id. */
    int store(String msgId, String title, String body, long ts, long ttl) throws IOException {
        int id = ids.assign(msgId);
        if (cache.containsKey(id)) {
            return id;
        }
        byte[] row = row(id);
        Put put =
                new Put(row)
                        .addColumn(F, MSG_ID, Bytes.toBytes(msgId))
                        .addColumn(F, TITLE, Bytes.toBytes(title == null ? "" : title))
                        .addColumn(F, BODY, Bytes.toBytes(body == null ? "" : body))
                        .addColumn(F, TS, Bytes.toBytes(ts))
                        .setTTL(ttl);
        // the first request of a msgId wins: a repeat changes nothing
        table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, MSG_ID).build(put));
        return id;
    }

    /** The stored messages of {@code ids} in id order; an id without one has expired. */
    List<Message> inIdOrder(RoaringBitmap ids) throws IOException {
        List<Message> out = new ArrayList<>(ids.getCardinality());
        for (IntIterator i = ids.getIntIterator(); i.hasNext(); ) {
            Message m = cache.get(i.next());
            if (m == null) {
                return InboxView.found(ids, of(ids)); // some to read: all in one batch
            }
            out.add(m);
        }
        return out;
    }

    /** The stored messages of {@code ids}; an id without one has expired. */
    Map<Integer, Message> of(RoaringBitmap ids) throws IOException {
        Map<Integer, Message> out = new HashMap<>();
        List<Integer> missing = new ArrayList<>();
        for (int id : ids) {
            Message m = cache.get(id);
            if (m != null) {
                out.put(id, m);
            } else {
                missing.add(id);
            }
        }
        if (missing.isEmpty()) {
            return out;
        }
        List<Get> gets = new ArrayList<>(missing.size());
        for (int id : missing) {
            gets.add(new Get(row(id)));
        }
        Result[] found = table.get(gets);
        for (int i = 0; i < found.length; i++) {
            Result r = found[i];
            if (r.isEmpty() || r.getValue(F, TS) == null) {
                continue;
            }
            int id = missing.get(i);
            Message m =
                    new Message(
                            id,
                            Bytes.toString(r.getValue(F, MSG_ID)),
                            Bytes.toString(r.getValue(F, TITLE)),
                            Bytes.toString(r.getValue(F, BODY)),
                            Bytes.toLong(r.getValue(F, TS)));
            cache.put(id, m, 1);
            out.put(id, m);
        }
        return out;
    }

    static byte[] row(int id) {
        return Bytes.add(Bytes.toBytes("m:"), Bytes.toBytes(id));
    }

    @Override
    public void close() throws IOException {
        ids.close();
    }
}
