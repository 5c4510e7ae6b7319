package io.pushline.schema.reminders;

/**
 * Reminders of one task that leave together: dense uid ids (ascending) that are all pushed at
 * {@code at}, or that all pulled the task (then {@code at} is its fireAt). The reminder pacer emits
 * them; the dispatch job resolves the ids to uids and devices, a replay writes one line per id.
 */
public class ReminderChunk {
    public String taskId;
    public String title;
    public String body;
    public long fireAt;

    /** {@link ReminderLine#PUSH} or {@link ReminderLine#PULLED}. */
    public String action;

    /** Send time, epoch ms: within the contract's rate per whole second. */
    public long at;

    public int[] ids;

    public ReminderChunk() {}
}
