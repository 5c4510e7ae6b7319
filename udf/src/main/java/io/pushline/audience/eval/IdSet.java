package io.pushline.audience.eval;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.roaringbitmap.BatchIterator;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * A set of dense user ids (a segment, or an expression's result) as a Roaring bitmap. Immutable to
 * its users: operations return new sets. Bytes written are run-optimized; bytes read are validated,
 * since they may come from anywhere.
 */
public final class IdSet {
    final RoaringBitmap bits;

    IdSet(RoaringBitmap bits) {
        this.bits = bits;
    }

    public static IdSet of(int... ids) {
        return new IdSet(RoaringBitmap.bitmapOf(ids));
    }

    /** Ids 0 (inclusive) to {@code end} (exclusive). */
    public static IdSet range(int end) {
        return new IdSet(RoaringBitmap.bitmapOfRange(0, end));
    }

    public long cardinality() {
        return bits.getLongCardinality();
    }

    public IntIterator ids() {
        return bits.getIntIterator();
    }

    /** Up to {@code max} ids at or above {@code from}, ascending: one chunk of an expansion. */
    public int[] chunk(long from, int max) {
        if (from > Integer.MAX_VALUE) {
            return new int[0];
        }
        BatchIterator it = bits.getBatchIterator();
        it.advanceIfNeeded((int) from);
        int[] out = new int[max];
        int n = 0;
        while (n < max && it.hasNext()) {
            if (n == 0) {
                n = it.nextBatch(out);
            } else {
                // A batch ends at a container boundary: continue into a scratch of what is left.
                int[] rest = new int[max - n];
                int k = it.nextBatch(rest);
                System.arraycopy(rest, 0, out, n, k);
                n += k;
            }
        }
        return n == max ? out : Arrays.copyOf(out, n);
    }

    /** What {@link #forEachChunk} hands each chunk to. */
    public interface ChunkConsumer {
        void accept(int[] ids) throws IOException;
    }

    /** Every id, ascending, in chunks of at most {@code max}. */
    public void forEachChunk(int max, ChunkConsumer each) throws IOException {
        for (long from = 0; ; ) {
            int[] ids = chunk(from, max);
            if (ids.length > 0) {
                each.accept(ids);
            }
            if (ids.length < max) {
                return;
            }
            from = (ids[ids.length - 1] & 0xFFFFFFFFL) + 1;
        }
    }

    /** For benchmarks that compare with hand-written bitmap code: the bitmap itself, not a copy. */
    public RoaringBitmap unwrap() {
        return bits;
    }

    /** Wraps a bitmap the caller no longer changes. */
    public static IdSet wrap(RoaringBitmap bits) {
        return new IdSet(bits);
    }

    public byte[] toBytes() {
        RoaringBitmap copy = bits.clone();
        copy.runOptimize();
        ByteArrayOutputStream out = new ByteArrayOutputStream(copy.serializedSizeInBytes());
        try (DataOutputStream data = new DataOutputStream(out)) {
            copy.serialize(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * @throws IllegalArgumentException when the bytes are not a valid Roaring bitmap
     */
    public static IdSet fromBytes(byte[] bytes) {
        RoaringBitmap b = new RoaringBitmap();
        try {
            b.deserialize(ByteBuffer.wrap(bytes));
            b.validate();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a valid Roaring bitmap: " + e.getMessage(), e);
        }
        return new IdSet(b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdSet && ((IdSet) o).bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }

    @Override
    public String toString() {
        return "IdSet{" + cardinality() + " ids}";
    }
}
