package io.pushline.schema.reminders;

/**
 * One event of {@code reminder.tasks} or {@code reminder.subscriptions} (equally, one line of a
 * reminders trace), checked: a task's create, update or cancel, or a user's subscribe, unsubscribe
 * or pull. Fields a type does not use are null.
 */
public class ReminderEvent {
    public static final String TASK = "task";
    public static final String SUBSCRIBE = "subscribe";
    public static final String UNSUBSCRIBE = "unsubscribe";
    public static final String PULL = "pull";

    public static final String CREATE = "create";
    public static final String UPDATE = "update";
    public static final String CANCEL = "cancel";

    /** Event time, epoch ms. */
    public long ts;

    /** Order among events of equal {@code ts}: the line number, or the record's offset. */
    public long seq;

    public String type;

    /** For {@code task}: create, update or cancel. */
    public String op;

    public String taskId;

    /** For subscribe, unsubscribe and pull. */
    public String uid;

    /** The uid's dense id in the uid dictionary; -1 until it is resolved. */
    public int uidId = -1;

    /** For create and update. */
    public Long fireAt;

    public String zone;
    public String title;
    public String body;

    public ReminderEvent() {}

    public boolean isTask() {
        return TASK.equals(type);
    }
}
