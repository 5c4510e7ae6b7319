package io.pushline.schema.reminders;

/**
 * One line of the reminders' output: a {@code push} (with its send time {@code at}), a {@code
 * pulled} subscriber (at the task's fireAt), or a {@code rejected} event (with its {@code ts} and
 * the reason). Push and pulled lines carry the uid's dense id; the uid itself is looked up where
 * the line leaves (the dictionary), rejected lines carry the uid of their event.
 */
public class ReminderLine {
    public static final String PUSH = "push";
    public static final String PULLED = "pulled";
    public static final String REJECTED = "rejected";

    public String taskId;
    public String uid;
    public int uidId = -1;
    public String action;
    public long at;

    /** For rejected: the event's time and why. */
    public long ts;

    public String reason;

    public ReminderLine() {}

    public static ReminderLine of(String taskId, int uidId, String action, long at) {
        ReminderLine l = new ReminderLine();
        l.taskId = taskId;
        l.uidId = uidId;
        l.action = action;
        l.at = at;
        return l;
    }

    public static ReminderLine rejected(ReminderEvent e, String reason) {
        ReminderLine l = new ReminderLine();
        l.ts = e.ts;
        l.taskId = e.taskId;
        l.uid = e.isTask() ? null : e.uid;
        l.action = REJECTED;
        l.reason = reason;
        return l;
    }
}
