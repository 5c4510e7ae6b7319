package io.pushline.audience.eval;

import org.roaringbitmap.RoaringBitmap;

/** Builds a segment's id set: from nothing (a package file) or from its last version (changes). */
public final class SegmentBuilder {
    private final RoaringBitmap bits;

    public SegmentBuilder() {
        this.bits = new RoaringBitmap();
    }

    public SegmentBuilder(IdSet base) {
        this.bits = base.bits.clone();
    }

    public void add(int id) {
        bits.add(id);
    }

    public void remove(int id) {
        bits.remove(id);
    }

    public IdSet build() {
        return new IdSet(bits.clone());
    }
}
