package io.pushline.inbox;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.SharedTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.RoaringBitmap;

/**
 * Messages to an audience, stored once: row {@code b:<id>} (time and chunk count) and the audience
 * bitmap over the uid dictionary's ids in rows {@code a:<id><chunk>}. A reader merges into an inbox
 * the live broadcasts whose audience holds its uid, so a message to ten million users costs the
 * writes of a message to one. The list of broadcasts and their audiences are cached (immutable).
 */
final class Broadcasts {
    private static final byte[] F = InboxRows.F;
    private static final byte[] TS = InboxRows.TS;
    private static final byte[] CHUNKS = Bytes.toBytes("chunks");
    private static final byte[] BYTES = Bytes.toBytes("b");
    private static final byte[] PREFIX = Bytes.toBytes("b:");

    /** Audience bytes per row: far below HBase's cell limit whatever the audience's size. */
    static final int CHUNK = 2 << 20;

    /** How long a list of broadcasts is reused before it is scanned again. */
    private static final long FRESH_MS = 1_000;

    private static final int[] NONE = new int[0];

    /**
     * A live broadcast, with its audience once a reader needed it: a read asks every live
     * broadcast, and a cache lookup each was a tenth of a cached inbox read's time.
     */
    private static final class Broadcast {
        final int id;
        final long ts;
        final int chunks;
        volatile RoaringBitmap audience;

        Broadcast(int id, long ts, int chunks) {
            this.id = id;
            this.ts = ts;
            this.chunks = chunks;
        }
    }

    private final SharedTable table;
    private final IdDictionary uidIds;
    private final LongSupplier clock;
    private final BoundedCache<Integer, RoaringBitmap> audiences = new BoundedCache<>(256L << 20);
    private volatile List<Broadcast> live;
    private volatile long liveAt = Long.MIN_VALUE;

    Broadcasts(SharedTable table, IdDictionary uidIds, LongSupplier clock) {
        this.table = table;
        this.uidIds = uidIds;
        this.clock = clock;
    }

    /** Stores message {@code id}'s audience, unless it has one already (the first one stays). */
    void write(int id, long ts, long ttl, IdSet audience) throws IOException {
        if (table.exists(new Get(row(id)))) {
            return;
        }
        byte[] bytes = audience.toBytes();
        int chunks = Math.max(1, (bytes.length + CHUNK - 1) / CHUNK);
        List<Put> puts = new ArrayList<>(chunks + 1);
        for (int c = 0; c < chunks; c++) {
            byte[] part =
                    Arrays.copyOfRange(bytes, c * CHUNK, Math.min(bytes.length, (c + 1) * CHUNK));
            puts.add(new Put(audienceRow(id, c)).addColumn(F, BYTES, part).setTTL(ttl));
        }
        table.put(puts);
        // the broadcast's row last: a reader never finds a broadcast without its audience
        table.put(
                new Put(row(id))
                        .addColumn(F, TS, Bytes.toBytes(ts))
                        .addColumn(F, CHUNKS, Bytes.toBytes(chunks))
                        .setTTL(ttl));
        liveAt = Long.MIN_VALUE;
    }

    /**
     * Ids of the broadcasts since {@code oldest} whose audience holds {@code uid}, ascending.
     *
     * @param known the uid's id in the uid dictionary when the caller has it, else null
     */
    int[] holding(String uid, Integer known, long oldest) throws IOException {
        List<Broadcast> all = live();
        if (all.isEmpty()) {
            return NONE;
        }
        Integer member = known != null ? known : uidIds.idOf(uid);
        if (member == null) {
            return NONE;
        }
        return holding(all, member, oldest, this::audience);
    }

    /**
     * As {@link #holding} for a uid whose dictionary id is known, from memory only: null when the
     * list of broadcasts is due to be scanned again or an audience is not loaded.
     */
    int[] holdingInMemory(int member, long oldest) {
        List<Broadcast> all = live;
        if (all == null || !fresh(clock.getAsLong())) {
            return null;
        }
        return holding(all, member, oldest, this::loadedAudience);
    }

    /** A broadcast's audience; null: not in memory (when it may say so). */
    private interface AudienceOf<E extends Exception> {
        RoaringBitmap of(Broadcast b) throws E;
    }

    /** Ids of those of {@code all} since {@code oldest} that hold {@code member}, ascending. */
    private static <E extends Exception> int[] holding(
            List<Broadcast> all, int member, long oldest, AudienceOf<E> audience) throws E {
        if (all.isEmpty()) {
            return NONE;
        }
        int[] out = new int[all.size()];
        int n = 0;
        for (Broadcast b : all) {
            if (b.ts < oldest) {
                continue;
            }
            RoaringBitmap bits = audience.of(b);
            if (bits == null) {
                return null;
            }
            if (bits.contains(member)) {
                out[n++] = b.id;
            }
        }
        int[] found = Arrays.copyOf(out, n);
        Arrays.sort(found); // the scan's row order is the ids' order; sorted to be sure
        return found;
    }

    /** The audience if this process holds it, else null. */
    private RoaringBitmap loadedAudience(Broadcast b) {
        RoaringBitmap known = b.audience;
        if (known == null) {
            known = audiences.get(b.id);
            b.audience = known;
        }
        return known;
    }

    /** Whether the list scanned last may still be used at {@code now}. */
    private boolean fresh(long now) {
        long at = liveAt;
        // MIN_VALUE: a broadcast was written since (and now - MIN_VALUE would overflow)
        return at != Long.MIN_VALUE && now >= at && now - at < FRESH_MS;
    }

    private List<Broadcast> live() throws IOException {
        long now = clock.getAsLong();
        List<Broadcast> cached = live;
        if (cached != null && fresh(now)) {
            return cached;
        }
        List<Broadcast> out = new ArrayList<>();
        Scan scan = new Scan().setRowPrefixFilter(PREFIX);
        try (ResultScanner rows = table.getScanner(scan)) {
            for (Result r : rows) {
                byte[] ts = r.getValue(F, TS);
                byte[] chunks = r.getValue(F, CHUNKS);
                if (ts != null && chunks != null) {
                    out.add(
                            new Broadcast(
                                    Bytes.toInt(r.getRow(), PREFIX.length),
                                    Bytes.toLong(ts),
                                    Bytes.toInt(chunks)));
                }
            }
        }
        live = out;
        liveAt = now;
        return out;
    }

    private RoaringBitmap audience(Broadcast b) throws IOException {
        RoaringBitmap known = loadedAudience(b);
        if (known != null) {
            return known;
        }
        List<Get> gets = new ArrayList<>(b.chunks);
        for (int c = 0; c < b.chunks; c++) {
            gets.add(new Get(audienceRow(b.id, c)));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (Result r : table.get(gets)) {
            byte[] part = r.getValue(F, BYTES);
            if (part == null) {
                return new RoaringBitmap(); // expired between the scan and now
            }
            bytes.write(part, 0, part.length);
        }
        RoaringBitmap bits = IdSet.fromBytes(bytes.toByteArray()).unwrap();
        audiences.put(b.id, bits, bytes.size());
        b.audience = bits;
        return bits;
    }

    static byte[] row(int id) {
        return Bytes.add(PREFIX, Bytes.toBytes(id));
    }

    static byte[] audienceRow(int id, int chunk) {
        return Bytes.add(Bytes.toBytes("a:"), Bytes.toBytes(id), Bytes.toBytes(chunk));
    }
}
