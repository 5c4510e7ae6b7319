package io.pushline.reminders;

import io.pushline.audience.eval.IdSet;
import java.nio.ByteBuffer;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * A changing set of dense uid ids (a task's subscribers, its pulls): a Roaring bitmap, so that ten
 * million subscribers cost a few MB. Stored run-optimized, validated when read back.
 */
final class UidSet {
    private final RoaringBitmap bits;

    private UidSet(RoaringBitmap bits) {
        this.bits = bits;
    }

    static UidSet empty() {
        return new UidSet(new RoaringBitmap());
    }

    /**
     * @throws IllegalArgumentException when the bytes are not a valid Roaring bitmap
     */
    static UidSet fromBytes(byte[] bytes) {
        if (bytes == null) {
            return empty();
        }
        RoaringBitmap b = new RoaringBitmap();
        try {
            b.deserialize(ByteBuffer.wrap(bytes));
            b.validate();
        } catch (java.io.IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a valid Roaring bitmap: " + e.getMessage(), e);
        }
        return new UidSet(b);
    }

    /** Whether it changed. */
    boolean add(int id) {
        return bits.checkedAdd(id);
    }

    /** Whether it changed. */
    boolean remove(int id) {
        return bits.checkedRemove(id);
    }

    boolean contains(int id) {
        return bits.contains(id);
    }

    boolean isEmpty() {
        return bits.isEmpty();
    }

    long size() {
        return bits.getLongCardinality();
    }

    /** Ids here and not in {@code other}. */
    UidSet minus(UidSet other) {
        return new UidSet(RoaringBitmap.andNot(bits, other.bits));
    }

    /** Ids here and in {@code other}. */
    UidSet and(UidSet other) {
        return new UidSet(RoaringBitmap.and(bits, other.bits));
    }

    IntIterator ids() {
        return bits.getIntIterator();
    }

    /** Run-optimized bytes (on a copy: this set keeps changing). */
    byte[] toBytes() {
        return IdSet.wrap(bits).toBytes();
    }

    long bytes() {
        return bits.serializedSizeInBytes();
    }
}
