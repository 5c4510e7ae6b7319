package io.pushline.inbox;

import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.ImmutableBitmapDataProvider;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/** The inbox table's columns and how its cells read back: one place for the row layout. */
final class InboxRows {
    static final byte[] F = HBaseTables.FAMILY;
    static final byte[] TS = Bytes.toBytes("ts");
    static final byte[] SENT = Bytes.toBytes("sent");
    static final byte[] READ = Bytes.toBytes("read");
    static final byte[] VERSION = Bytes.toBytes("v");

    /** The uid's id in the uid dictionary, kept in its row: a read needs one get, not two. */
    static final byte[] MEMBER = Bytes.toBytes("i");

    static final byte[] NO_IDS = IdSet.wrap(new RoaringBitmap()).toBytes();

    /** A row as the cache keeps it; null when {@code r} has none. */
    static InboxCache.Row row(Result r) {
        if (r.isEmpty() || r.getValue(F, VERSION) == null) {
            return null;
        }
        byte[] member = r.getValue(F, MEMBER);
        return new InboxCache.Row(
                checked(r.getValue(F, SENT)),
                checked(r.getValue(F, READ)),
                member == null ? -1 : Bytes.toInt(member),
                Bytes.toLong(r.getValue(F, VERSION)));
    }

    /**
     * A bitmap over bytes validated before, read in place: nothing is copied or allocated per
     * container, which matters on the inbox's most frequent read.
     */
    static ImmutableRoaringBitmap trusted(byte[] bytes) {
        return new ImmutableRoaringBitmap(ByteBuffer.wrap(bytes));
    }

    /**
     * The ids of {@code sent} and of {@code more} (ascending, small), ascending, each once: the
     * inbox's messages before they are looked up.
     */
    static int[] union(ImmutableBitmapDataProvider sent, int[] more) {
        int[] out = new int[sent.getCardinality() + more.length];
        int n = 0;
        int j = 0;
        for (PeekableIntIterator it = sent.getIntIterator(); it.hasNext(); ) {
            int id = it.next();
            while (j < more.length && more[j] < id) {
                out[n++] = more[j++];
            }
            if (j < more.length && more[j] == id) {
                j++;
            }
            out[n++] = id;
        }
        while (j < more.length) {
            out[n++] = more[j++];
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Bitmap bytes from HBase, validated (an empty bitmap for none). */
    static byte[] checked(byte[] bytes) {
        if (bytes == null) {
            return NO_IDS;
        }
        IdSet.fromBytes(bytes);
        return bytes;
    }

    static RoaringBitmap bitmap(Result r, byte[] column) {
        byte[] bytes = r.getValue(F, column);
        return bytes == null ? new RoaringBitmap() : IdSet.fromBytes(bytes).unwrap().clone();
    }

    static byte[] userRow(String uid) {
        return Bytes.toBytes("u:" + uid);
    }

    private InboxRows() {}
}
