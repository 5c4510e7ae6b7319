package io.pushline.schema.reminders;

/**
 * A change of what app backends may read about reminders (the HBase {@code reminders} table): a
 * task's fields and status, its subscriber and pull counts, or a uid's subscription to a task
 * coming or going.
 */
public class ReminderMirror {
    public static final String TASK = "task";
    public static final String SUBSCRIBED = "subscribed";
    public static final String UNSUBSCRIBED = "unsubscribed";

    /** A task's subscriber and pull counts, as its bitmaps hold them. */
    public static final String COUNTS = "counts";

    public String kind;
    public String taskId;

    /** For subscriptions. */
    public String uid;

    /** Event time of the change: the cells' version. */
    public long ts;

    public long fireAt;
    public String zone;
    public String title;
    public String body;
    public String status;

    /** For counts. */
    public long subscribers;

    public long pulled;

    public ReminderMirror() {}

    public static ReminderMirror counts(String taskId, long subscribers, long pulled, long ts) {
        ReminderMirror m = new ReminderMirror();
        m.kind = COUNTS;
        m.taskId = taskId;
        m.ts = ts;
        m.subscribers = subscribers;
        m.pulled = pulled;
        return m;
    }

    public static ReminderMirror task(ReminderTask t, long ts) {
        ReminderMirror m = new ReminderMirror();
        m.kind = TASK;
        m.taskId = t.taskId;
        m.ts = ts;
        m.fireAt = t.fireAt;
        m.zone = t.zone;
        m.title = t.title;
        m.body = t.body;
        m.status = t.status;
        return m;
    }

    public static ReminderMirror subscription(String kind, ReminderTask t, String uid, long ts) {
        ReminderMirror m = new ReminderMirror();
        m.kind = kind;
        m.taskId = t.taskId;
        m.uid = uid;
        m.ts = ts;
        m.fireAt = t.fireAt;
        return m;
    }
}
