package io.pushline.gate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A priority queue for elements that arrive nearly in order, as pushes do: each input channel
 * delivers in time order, channels interleave. An element goes to the first of a few sorted runs
 * whose last element it does not precede (appended, O(1)); only elements that fit no run go to a
 * heap. The smallest element is the least of the runs' heads and the heap's.
 */
final class WaitingQueue<T extends Comparable<T>> implements Iterable<T> {
    private static final int RUNS = 4;

    private final List<ArrayDeque<T>> runs = new ArrayList<>(RUNS);
    private final PriorityQueue<T> rest = new PriorityQueue<>();
    private int size;

    WaitingQueue() {
        for (int i = 0; i < RUNS; i++) {
            runs.add(new ArrayDeque<>());
        }
    }

    void add(T e) {
        size++;
        for (int i = 0; i < RUNS; i++) {
            ArrayDeque<T> run = runs.get(i);
            T last = run.peekLast();
            if (last == null || last.compareTo(e) <= 0) {
                run.addLast(e);
                return;
            }
        }
        rest.add(e);
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    T peek() {
        return size == 0 ? null : source().peek();
    }

    T poll() {
        if (size == 0) {
            return null;
        }
        size--;
        return source().poll();
    }

    /** Removes and returns the smallest element if {@code test} holds for it, else null. */
    T pollIf(java.util.function.Predicate<T> test) {
        if (size == 0) {
            return null;
        }
        java.util.Queue<T> source = source();
        if (!test.test(source.peek())) {
            return null;
        }
        size--;
        return source.poll();
    }

    /** The run or the heap whose head is the smallest element. */
    private java.util.Queue<T> source() {
        java.util.Queue<T> best = rest;
        T min = rest.peek();
        for (int i = 0; i < RUNS; i++) {
            ArrayDeque<T> run = runs.get(i);
            T head = run.peekFirst();
            if (head != null && (min == null || head.compareTo(min) < 0)) {
                min = head;
                best = run;
            }
        }
        return best;
    }

    @Override
    public Iterator<T> iterator() {
        List<T> all = new ArrayList<>(size);
        runs.forEach(all::addAll);
        all.addAll(rest);
        return all.iterator();
    }
}
