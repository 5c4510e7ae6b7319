package io.pushline.emulators;

/** A set of 64-bit hashes in open addressing: millions of sends without boxing. */
public final class LongSet {
    private long[] slots = new long[1 << 16];
    private int size;
    private boolean hasZero;

    /**
     * A 64-bit hash of a pair of strings, (message, device) say: over every char (String's 32-bit
     * hash would make sequential ids collide and a count of distinct pairs wrong).
     */
    public static long pair(String a, String b) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < a.length(); i++) {
            h = (h ^ a.charAt(i)) * 0x100000001b3L;
        }
        h = (h ^ 0xFFFF) * 0x100000001b3L;
        for (int i = 0; i < b.length(); i++) {
            h = (h ^ b.charAt(i)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        return h ^ (h >>> 33);
    }

    /** Adds {@code v}; false when it was there. */
    public synchronized boolean add(long v) {
        if (v == 0) {
            boolean was = hasZero;
            hasZero = true;
            return !was;
        }
        if (size * 2 >= slots.length) {
            grow();
        }
        int mask = slots.length - 1;
        for (int i = (int) (v ^ (v >>> 29)) & mask; ; i = (i + 1) & mask) {
            if (slots[i] == v) {
                return false;
            }
            if (slots[i] == 0) {
                slots[i] = v;
                size++;
                return true;
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        size = 0;
        for (long v : old) {
            if (v != 0) {
                add(v);
            }
        }
    }

    public synchronized boolean contains(long v) {
        if (v == 0) {
            return hasZero;
        }
        int mask = slots.length - 1;
        for (int i = (int) (v ^ (v >>> 29)) & mask; ; i = (i + 1) & mask) {
            if (slots[i] == v) {
                return true;
            }
            if (slots[i] == 0) {
                return false;
            }
        }
    }

    public synchronized int size() {
        return size + (hasZero ? 1 : 0);
    }
}
