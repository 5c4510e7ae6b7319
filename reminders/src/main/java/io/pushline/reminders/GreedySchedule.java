package io.pushline.reminders;

/**
 * The contract's greedy schedule: tasks taken in firing order ({@code fireAt}, then taskId), each
 * push put into the earliest whole second, from the one holding {@code fireAt} on, that has fewer
 * than {@code rate} pushes. Tasks come in firing order, so every second before the cursor that a
 * later task could use is already full: the cursor (a second and the pushes in it) is all the state
 * there is, and taking the pushes one task after the other is the greedy schedule.
 */
final class GreedySchedule {
    private final int rate;
    private long second;
    private long used;

    GreedySchedule(int rate) {
        this(rate, Long.MIN_VALUE, 0);
    }

    /** Restores a cursor saved from {@link #second()} and {@link #used()}. */
    GreedySchedule(int rate, long second, long used) {
        this.rate = rate;
        this.second = second;
        this.used = used;
    }

    /**
     * Moves the cursor to the second of the next push of a task firing at {@code fireAt} and
     * returns that push's send time; {@link #room()} pushes fit in that second.
     */
    long prepare(long fireAt) {
        long first = Math.floorDiv(fireAt, 1000L);
        if (first > second) {
            second = first;
            used = 0;
        }
        if (used >= rate) {
            second++;
            used = 0;
        }
        return Math.max(fireAt, second * 1000L);
    }

    /** Pushes the current second still has room for. */
    long room() {
        return rate - used;
    }

    /** Puts {@code n} <= {@link #room()} pushes into the current second. */
    void take(long n) {
        used += n;
    }

    /** The send time of the next single push of a task firing at {@code fireAt}. */
    long next(long fireAt) {
        long at = prepare(fireAt);
        take(1);
        return at;
    }

    long second() {
        return second;
    }

    long used() {
        return used;
    }

    int rate() {
        return rate;
    }
}
