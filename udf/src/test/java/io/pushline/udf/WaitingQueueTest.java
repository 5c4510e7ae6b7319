package io.pushline.udf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WaitingQueueTest {
    /** An element with its key; equal times are ordered by seq, then by ref. */
    private record E(long ts, long seq, long ref) implements Comparable<E> {
        @Override
        public int compareTo(E o) {
            return WaitingQueue.compare(ts, seq, ref, o.ts, o.seq, o.ref);
        }
    }

    private static void add(WaitingQueue<E> q, E e) {
        q.add(e, e.ts, e.seq, e.ref);
    }

    @Test
    void pollsInOrderWhateverTheArrivalOrder() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            WaitingQueue<E> q = new WaitingQueue<>();
            PriorityQueue<E> model = new PriorityQueue<>();
            int channels = 1 + random.nextInt(6);
            long[] clock = new long[channels];
            List<E> polled = new ArrayList<>();
            List<E> expected = new ArrayList<>();
            long ref = 0;
            // enough to make the runs' buffers grow while wrapped around
            int n = 100 + random.nextInt(2000);
            for (int i = 0; i < n; i++) {
                if (random.nextInt(5) == 0 && !model.isEmpty()) {
                    assertThat(q.peek()).isEqualTo(model.peek());
                    polled.add(q.poll());
                    expected.add(model.poll());
                    continue;
                }
                int c = random.nextInt(channels);
                // mostly in order per channel, sometimes far behind; equal times tie on seq, ref
                clock[c] += random.nextInt(10);
                int kind = random.nextInt(20);
                long ts =
                        kind == 0
                                ? clock[c] - random.nextInt(1000)
                                : kind == 1 ? clock[c] + 1000 * (1 + random.nextInt(3)) : clock[c];
                E e = new E(ts, random.nextInt(3), ref++);
                add(q, e);
                model.add(e);
                assertThat(q.size()).isEqualTo(model.size());
            }
            assertThat(q).containsExactlyInAnyOrderElementsOf(model);
            while (!model.isEmpty()) {
                polled.add(q.poll());
                expected.add(model.poll());
            }
            assertThat(polled).isEqualTo(expected);
            assertThat(q.isEmpty()).isTrue();
            assertThat(q.poll()).isNull();
            assertThat(q.peek()).isNull();
        }
    }

    @Test
    void pollUpToTakesTheSmallestOnlyWhenItIsDue() {
        WaitingQueue<E> q = new WaitingQueue<>();
        long ref = 0;
        for (long ts : new long[] {5, 1, 9, 3, 2}) {
            add(q, new E(ts, 0, ref++));
        }
        assertThat(q.pollUpTo(3)).extracting(E::ts).isEqualTo(1L);
        assertThat(q.pollUpTo(3)).extracting(E::ts).isEqualTo(2L);
        assertThat(q.pollUpTo(3)).extracting(E::ts).isEqualTo(3L);
        assertThat(q.pollUpTo(3)).isNull();
        assertThat(q.size()).isEqualTo(2);
        assertThat(q.peek()).extracting(E::ts).isEqualTo(5L);
        q.poll();
        q.poll();
        assertThat(q.pollUpTo(Long.MAX_VALUE)).isNull();
    }

    @Test
    void elementsAheadOfTheRestGetRunsOfTheirOwn() {
        // two channels of sends, each followed by acks 300 ms and 10 s later, as the ack tracker
        // sees them: a run per channel and per lag, however long the stream
        WaitingQueue<E> q = new WaitingQueue<>();
        PriorityQueue<E> model = new PriorityQueue<>();
        long ref = 0;
        int maxRuns = 0;
        for (long t = 0; t < 200_000; t += 4) {
            for (int channel = 0; channel < 2; channel++) {
                for (long lag : new long[] {0, 300, 10_000}) {
                    E e = new E(t + channel + lag, 0, ref++);
                    add(q, e);
                    model.add(e);
                }
            }
            maxRuns = Math.max(maxRuns, q.runs());
            if (t % 1_000 == 0) {
                // the watermark, a second behind
                for (E e; (e = q.pollUpTo(t - 1_000)) != null; ) {
                    assertThat(e).isEqualTo(model.poll());
                }
                assertThat(model.isEmpty() || model.peek().ts > t - 1_000).isTrue();
            }
        }
        assertThat(maxRuns).isLessThanOrEqualTo(6);
        while (!model.isEmpty()) {
            assertThat(q.poll()).isEqualTo(model.poll());
        }
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void inputInNoOrderKeepsTheRunsBounded() {
        WaitingQueue<E> q = new WaitingQueue<>();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            add(q, new E(n - i, 0, i));
            assertThat(q.runs()).isLessThanOrEqualTo(WaitingQueue.MAX_RUNS);
        }
        for (int i = 1; i <= n; i++) {
            assertThat(q.poll().ts).isEqualTo(i);
        }
        assertThat(q.poll()).isNull();
    }

    /**
     * Iterating sees every element once, in runs and past the run limit alike, after some have been
     * polled.
     */
    @Test
    void iteratingSeesEveryWaitingElementOnce() {
        WaitingQueue<E> q = new WaitingQueue<>();
        Random random = new Random(11);
        List<E> added = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            // in no order at all, so that runs fill up and the rest waits in the plain heap
            E e = new E(random.nextInt(1_000), 0, i);
            add(q, e);
            added.add(e);
        }
        for (int i = 0; i < 1_000; i++) {
            added.remove(q.poll());
        }
        List<E> visited = new ArrayList<>();
        q.forEach(visited::add);
        assertThat(visited).containsExactlyInAnyOrderElementsOf(added);
    }
}
