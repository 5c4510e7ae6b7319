package io.pushline.schema.reminders;

/** A fired task in the reminder pacer, as checkpointed: the task and how far its pushes got. */
public class ScheduledTask {
    public FiredTask task;

    /** Whether its place in the schedule is fixed (it is taken in firing order). */
    public boolean scheduled;

    /** Pushes already sent (in ascending id order). */
    public long sent;

    /** The smallest id not yet sent. */
    public long nextId;

    /** Whether all its pulled lines are out. */
    public boolean pulledOut;

    /** Pulled lines out so far: they go out alongside the pushes, in proportion. */
    public long pulledSent;

    /** The smallest pulled id not yet out. */
    public long pulledNext;

    public ScheduledTask() {}

    public static ScheduledTask of(FiredTask task) {
        ScheduledTask s = new ScheduledTask();
        s.task = task;
        return s;
    }
}
