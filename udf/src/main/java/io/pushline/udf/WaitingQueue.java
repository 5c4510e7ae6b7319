package io.pushline.udf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A priority queue for elements that arrive nearly in order, as pushes do: each input channel
 * delivers in time order, channels interleave. An element goes to the first of a few sorted runs
 * whose last element it does not precede (appended, O(1)); only elements that fit no run go to a
 * heap. The smallest element is the least of the runs' heads and the heap's.
 *
 * <p>Elements are ordered by a key of three longs (time, sequence, reference) given with each. The
 * runs keep their keys in arrays of their own: finding the smallest head reads those, in order, and
 * not the elements, which have waited long enough to leave the CPU's caches.
 */
public final class WaitingQueue<T> implements Iterable<T> {
    private static final int RUNS = 4;

    @SuppressWarnings("unchecked")
    private final Run<T>[] runs = new Run[RUNS];

    private final PriorityQueue<Entry<T>> rest = new PriorityQueue<>();
    private int size;

    public WaitingQueue() {
        for (int i = 0; i < RUNS; i++) {
            runs[i] = new Run<>();
        }
    }

    public void add(T e, long ts, long seq, long ref) {
        size++;
        for (Run<T> run : runs) {
            if (run.size == 0 || run.lastNotAfter(ts, seq, ref)) {
                run.append(e, ts, seq, ref);
                return;
            }
        }
        rest.add(new Entry<>(e, ts, seq, ref));
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** The smallest element, or null when empty. */
    public T peek() {
        int r = smallest();
        return r < 0 ? null : r == RUNS ? rest.peek().item : runs[r].headItem();
    }

    /** Removes and returns the smallest element, or null when empty. */
    public T poll() {
        return pollUpTo(Long.MAX_VALUE);
    }

    /** Removes and returns the smallest element if its time is at most {@code maxTs}, else null. */
    public T pollUpTo(long maxTs) {
        int r = smallest();
        if (r < 0) {
            return null;
        }
        if (r == RUNS) {
            if (rest.peek().ts > maxTs) {
                return null;
            }
            size--;
            return rest.poll().item;
        }
        Run<T> run = runs[r];
        if (run.headTs() > maxTs) {
            return null;
        }
        size--;
        return run.removeHead();
    }

    /** The run (0..RUNS-1) or the heap (RUNS) whose head is the smallest; -1 when empty. */
    private int smallest() {
        if (size == 0) {
            return -1;
        }
        int best = -1;
        long ts = 0;
        long seq = 0;
        long ref = 0;
        Entry<T> h = rest.peek();
        if (h != null) {
            best = RUNS;
            ts = h.ts;
            seq = h.seq;
            ref = h.ref;
        }
        for (int i = 0; i < RUNS; i++) {
            Run<T> run = runs[i];
            if (run.size == 0) {
                continue;
            }
            int at = run.head;
            if (best < 0 || compare(run.ts[at], run.seq[at], run.ref[at], ts, seq, ref) < 0) {
                best = i;
                ts = run.ts[at];
                seq = run.seq[at];
                ref = run.ref[at];
            }
        }
        return best;
    }

    static int compare(long ts1, long seq1, long ref1, long ts2, long seq2, long ref2) {
        int c = Long.compare(ts1, ts2);
        if (c == 0) {
            c = Long.compare(seq1, seq2);
        }
        return c != 0 ? c : Long.compare(ref1, ref2);
    }

    @Override
    public Iterator<T> iterator() {
        List<T> all = new ArrayList<>(size);
        for (Run<T> run : runs) {
            for (int i = 0; i < run.size; i++) {
                all.add(run.item((run.head + i) & (run.items.length - 1)));
            }
        }
        for (Entry<T> e : rest) {
            all.add(e.item);
        }
        return all.iterator();
    }

    /** A ring buffer of elements in key order, keys beside them; capacity a power of two. */
    private static final class Run<T> {
        long[] ts = new long[16];
        long[] seq = new long[16];
        long[] ref = new long[16];
        Object[] items = new Object[16];
        int head;
        int size;

        boolean lastNotAfter(long t, long s, long r) {
            int last = (head + size - 1) & (items.length - 1);
            return compare(ts[last], seq[last], ref[last], t, s, r) <= 0;
        }

        void append(T e, long t, long s, long r) {
            if (size == items.length) {
                grow();
            }
            int at = (head + size) & (items.length - 1);
            items[at] = e;
            ts[at] = t;
            seq[at] = s;
            ref[at] = r;
            size++;
        }

        long headTs() {
            return ts[head];
        }

        T headItem() {
            return item(head);
        }

        T removeHead() {
            T e = item(head);
            items[head] = null;
            head = (head + 1) & (items.length - 1);
            size--;
            if (size == 0) {
                head = 0;
            }
            return e;
        }

        @SuppressWarnings("unchecked")
        T item(int at) {
            return (T) items[at];
        }

        private void grow() {
            int n = items.length;
            ts = unwrap(ts, n);
            seq = unwrap(seq, n);
            ref = unwrap(ref, n);
            Object[] bigger = new Object[n * 2];
            int first = n - head;
            System.arraycopy(items, head, bigger, 0, first);
            System.arraycopy(items, 0, bigger, first, head);
            items = bigger;
            head = 0;
        }

        private long[] unwrap(long[] a, int n) {
            long[] bigger = Arrays.copyOf(a, n * 2);
            int first = n - head;
            System.arraycopy(a, head, bigger, 0, first);
            System.arraycopy(a, 0, bigger, first, head);
            return bigger;
        }
    }

    private record Entry<T>(T item, long ts, long seq, long ref) implements Comparable<Entry<T>> {
        @Override
        public int compareTo(Entry<T> o) {
            return compare(ts, seq, ref, o.ts, o.seq, o.ref);
        }
    }
}
