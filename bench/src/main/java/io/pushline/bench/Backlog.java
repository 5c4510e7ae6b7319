package io.pushline.bench;

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

    /** Its sends visible so far (over all its msgIds). */
    long visible(VisibleSends seen);

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
