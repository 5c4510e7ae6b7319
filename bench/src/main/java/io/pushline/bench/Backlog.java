package io.pushline.bench;

import java.util.List;

/**
 * A backlog that {@code bench latency} puts in front of realtime pushes: what it is, which sends it
 * makes, and how it is produced.
 */
interface Backlog {
    /** The phase's name in the report: campaign, uids, devices, batches, reminder, slots. */
    String key();

    /** What it is, for the phase's line. */
    String label();

    /** How many sends it makes once drained. */
    long sends();

    /** The msgIds of its sends; visible sends are counted over all of them. */
    List<String> msgIds();

    /** Its sends visible so far. */
    default long visible(VisibleSends seen) {
        long n = 0;
        for (String id : msgIds()) {
            n += seen.count(id);
        }
        return n;
    }

    /**
     * Produces the backlog and returns the wall-clock time from which it weighs on the job: now for
     * a request, the fire for a reminder task, the slot for scheduled requests. Returns at most a
     * second before that time, so the realtime pushes that follow meet the backlog.
     */
    long produce(String kafka) throws Exception;

    /** Sleeps until {@code lead} ms before {@code at}. */
    static void waitUntil(long at, long lead) throws InterruptedException {
        long wait = at - lead - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }
}
