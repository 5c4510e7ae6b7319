package io.pushline.inbox;

import io.pushline.audience.IdDictionary;
import io.pushline.common.SharedTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.RoaringBitmap;

/**
 * The inbox's messages, each stored once: a dense int id from the {@code inbox_ids} dictionary and
 * row {@code m:<id>} (msgId, title, body, time), written by the first request of a msgId: the one
 * with the earliest {@code ts}, whichever reached HBase first. A message changes only when an
 * earlier request of its msgId comes after a later one, at once in practice; readers cache messages
 * by id and drop one when told it changed ({@link #forget}). A row gone (its TTL passed) is a
 * message that has left every inbox.
 */
final class Messages implements AutoCloseable {
    private static final byte[] F = InboxRows.F;
    private static final byte[] TS = InboxRows.TS;
    private static final byte[] MSG_ID = Bytes.toBytes("msgId");
    private static final byte[] TITLE = Bytes.toBytes("title");
    private static final byte[] BODY = Bytes.toBytes("body");

    private final SharedTable table;
    private final IdDictionary ids;
    private final BoundedCache<Integer, Message> cache = new BoundedCache<>(100_000);
    private List<Integer> replaced = new ArrayList<>();

    Messages(SharedTable table, IdDictionary ids) {
        this.table = table;
        this.ids = ids;
    }

    /** The id of {@code msgId}, or null when no message had it. */
    Integer idOf(String msgId) throws IOException {
        return ids.idOf(msgId);
    }

    /**
     * Stores a message unless its msgId has one from a request at the same time or earlier: the
     * first request wins by its {@code ts}, not by which reached HBase first (two requests of a
     * msgId read from different partitions reach the writers in either order). Returns its id.
     */
    int store(String msgId, String title, String body, long ts, long ttl) throws IOException {
        int id = ids.assign(msgId);
        Message known = cache.get(id);
        if (known != null && known.ts() <= ts) {
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
        if (table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, MSG_ID).build(put))
                .isSuccess()) {
            return id;
        }
        if (ts >= 0) {
            // an earlier request replaces a later one's entry; an equal or later one changes
            // nothing. HBase's check reads "given op stored": LESS passes when this ts is less
            // than the stored one (big-endian longs >= 0 sort as numbers).
            boolean changed =
                    table.checkAndMutate(
                                    CheckAndMutate.newBuilder(row)
                                            .ifMatches(
                                                    F, TS, CompareOperator.LESS, Bytes.toBytes(ts))
                                            .build(put))
                            .isSuccess();
            if (changed) {
                cache.remove(id);
                replaced.add(id);
            }
        }
        return id;
    }

    /** Drops message {@code id} from the cache: its entry changed. */
    void forget(int id) {
        cache.remove(id);
    }

    /** Ids of the messages this writer replaced since the last call. */
    List<Integer> takeReplaced() {
        if (replaced.isEmpty()) {
            return List.of();
        }
        List<Integer> out = replaced;
        replaced = new ArrayList<>();
        return out;
    }

    /**
     * The stored messages of {@code ids} (ascending) in id order; an id without one has expired.
     */
    List<Message> inIdOrder(int[] ids) throws IOException {
        List<Message> cached = inIdOrderInMemory(ids);
        if (cached != null) {
            return cached;
        }
        RoaringBitmap all = RoaringBitmap.bitmapOf(ids);
        return InboxView.found(all, of(all)); // some to read: all in one batch
    }

    /** As {@link #inIdOrder}, from memory only: null when a message is not cached. */
    List<Message> inIdOrderInMemory(int[] ids) {
        List<Message> out = new ArrayList<>(ids.length);
        for (int id : ids) {
            Message m = cache.get(id);
            if (m == null) {
                return null;
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
