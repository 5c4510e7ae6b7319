package io.pushline.schema.reminders;

/**
 * A task at its {@code fireAt}: who is to be pushed (subscribers that did not pull) and who pulled,
 * as run-optimized Roaring bitmaps of dense uid ids, on the way from the reminders operator to the
 * reminder pacer.
 */
public class FiredTask {
    public String taskId;
    public long fireAt;
    public String title;
    public String body;

    /** Subscribers that did not pull: each gets one push. */
    public byte[] push;

    /** Subscribers whose app pulled the task: not pushed. */
    public byte[] pulled;

    public long pushCount;
    public long pulledCount;

    public FiredTask() {}
}
