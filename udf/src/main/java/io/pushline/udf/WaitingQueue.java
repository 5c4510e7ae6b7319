package io.pushline.udf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * A priority queue for elements that arrive nearly in order, as pushes do: each input channel
 * delivers in time order, channels interleave, and some elements come far ahead of the rest (an ack
 * of a retry, stamped seconds after the sends around it). Elements are kept in sorted runs: an
 * element joins the run whose last element is the latest one not after it (appended, O(1)), or
 * starts a new run. So each channel, and each kind of element that runs ahead by about the same
 * time, fills a run of its own, and an element ahead of the rest does not block the run its channel
 * appends to. The smallest element is the least of the runs' heads, found through a heap of runs:
 * O(log runs) per element, where runs are few.
 *
 * <p>Elements are ordered by a key of three longs (time, sequence, reference) given with each. The
 * runs keep their keys in arrays of their own: comparing heads reads those, and not the elements,
 * which have waited long enough to leave the CPU's caches.
 */
public final class WaitingQueue<T> implements Iterable<T> {
    /**
     * At most this many runs: input in no order at all (every element before the last) would make a
     * run per element; past the limit, elements wait in a plain heap.
     */
    static final int MAX_RUNS = 64;

    /** Emptied runs kept for reuse, with their arrays if those are small. */
    private static final int SPARE_RUNS = 16;

    private static final int SPARE_CAPACITY = 4096;

    /** The runs by their last key, ascending (appending keeps this order). */
    @SuppressWarnings("unchecked")
    private Run<T>[] byLast = new Run[8];

    /** The same runs as a binary min-heap on their head keys. */
    @SuppressWarnings("unchecked")
    private Run<T>[] heap = new Run[8];

    private int runs;
    private final PriorityQueue<Entry<T>> rest = new PriorityQueue<>();
    private final List<Run<T>> spare = new ArrayList<>();
    private int size;

    public void add(T e, long ts, long seq, long ref) {
        size++;
        // the run whose last key is the latest not after this one: binary search, the newest first
        int at = -1;
        if (runs > 0 && byLast[runs - 1].lastNotAfter(ts, seq, ref)) {
            at = runs - 1;
        } else {
            int lo = 0;
            int hi = runs - 2;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (byLast[mid].lastNotAfter(ts, seq, ref)) {
                    at = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
        }
        if (at >= 0) {
            byLast[at].append(e, ts, seq, ref);
            return;
        }
        if (runs == MAX_RUNS) {
            rest.add(new Entry<>(e, ts, seq, ref));
            return;
        }
        // before every run's last: a new run, first by last key
        Run<T> run = spare.isEmpty() ? new Run<>() : spare.remove(spare.size() - 1);
        run.append(e, ts, seq, ref);
        if (runs == byLast.length) {
            byLast = Arrays.copyOf(byLast, runs * 2);
            heap = Arrays.copyOf(heap, runs * 2);
        }
        System.arraycopy(byLast, 0, byLast, 1, runs);
        byLast[0] = run;
        heap[runs] = run;
        runs++;
        siftUp(runs - 1);
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** How many sorted runs hold the elements (for tests and metrics). */
    int runs() {
        return runs;
    }

    /** The smallest element, or null when empty. */
    public T peek() {
        if (fromRest()) {
            return rest.peek().item;
        }
        return runs == 0 ? null : heap[0].headItem();
    }

    /** Whether the smallest element waits in the heap of elements that found no run. */
    private boolean fromRest() {
        Entry<T> h = rest.peek();
        if (h == null) {
            return false;
        }
        if (runs == 0) {
            return true;
        }
        Run<T> r = heap[0];
        return compare(h.ts, h.seq, h.ref, r.ts[r.head], r.seq[r.head], r.ref[r.head]) < 0;
    }

    /** Removes and returns the smallest element, or null when empty. */
    public T poll() {
        return pollUpTo(Long.MAX_VALUE);
    }

    /** Removes and returns the smallest element if its time is at most {@code maxTs}, else null. */
    public T pollUpTo(long maxTs) {
        if (!rest.isEmpty() && fromRest()) {
            if (rest.peek().ts > maxTs) {
                return null;
            }
            size--;
            return rest.poll().item;
        }
        if (runs == 0) {
            return null;
        }
        Run<T> run = heap[0];
        if (run.headTs() > maxTs) {
            return null;
        }
        size--;
        T e = run.removeHead();
        if (run.size > 0) {
            siftDown(0);
            return e;
        }
        runs--;
        heap[0] = heap[runs];
        heap[runs] = null;
        if (runs > 0) {
            siftDown(0);
        }
        int i = 0;
        while (byLast[i] != run) {
            i++;
        }
        System.arraycopy(byLast, i + 1, byLast, i, runs - i);
        byLast[runs] = null;
        if (spare.size() < SPARE_RUNS && run.items.length <= SPARE_CAPACITY) {
            spare.add(run);
        }
        return e;
    }

    private void siftUp(int i) {
        Run<T> run = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!run.headBefore(heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = run;
    }

    private void siftDown(int i) {
        Run<T> run = heap[i];
        int half = runs >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < runs && heap[right].headBefore(heap[child])) {
                child = right;
            }
            if (!heap[child].headBefore(run)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = run;
    }

    static int compare(long ts1, long seq1, long ref1, long ts2, long seq2, long ref2) {
        int c = Long.compare(ts1, ts2);
        if (c == 0) {
            c = Long.compare(seq1, seq2);
        }
        return c != 0 ? c : Long.compare(ref1, ref2);
    }

    /**
     * The elements in no particular order, read in place (a checkpoint walks every waiting record,
     * so it must not copy them first); the queue must not change while it is iterated.
     */
    @Override
    public Iterator<T> iterator() {
        Iterator<Entry<T>> inRest = rest.iterator();
        return new Iterator<>() {
            private int run;
            private int i;

            @Override
            public boolean hasNext() {
                while (run < runs && i >= byLast[run].size) {
                    run++;
                    i = 0;
                }
                return run < runs || inRest.hasNext();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (run < runs) {
                    Run<T> r = byLast[run];
                    return r.item((r.head + i++) & (r.items.length - 1));
                }
                return inRest.next().item;
            }
        };
    }

    private record Entry<T>(T item, long ts, long seq, long ref) implements Comparable<Entry<T>> {
        @Override
        public int compareTo(Entry<T> o) {
            return compare(ts, seq, ref, o.ts, o.seq, o.ref);
        }
    }

    /**
     * A ring buffer of elements in key order, keys beside them; capacity a power of two. Its last
     * key stays after it empties, until it is reused.
     */
    private static final class Run<T> {
        long[] ts = new long[16];
        long[] seq = new long[16];
        long[] ref = new long[16];
        Object[] items = new Object[16];
        int head;
        int size;
        long lastTs;
        long lastSeq;
        long lastRef;

        boolean lastNotAfter(long t, long s, long r) {
            return compare(lastTs, lastSeq, lastRef, t, s, r) <= 0;
        }

        boolean headBefore(Run<T> o) {
            return compare(
                            ts[head],
                            seq[head],
                            ref[head],
                            o.ts[o.head],
                            o.seq[o.head],
                            o.ref[o.head])
                    < 0;
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
            lastTs = t;
            lastSeq = s;
            lastRef = r;
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
}
