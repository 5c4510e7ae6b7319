package io.pushline.schema.reminders;

/**
 * A reminder task as the reminders operator keeps it (keyed by taskId). Its subscribers and pulls
 * are kept beside it as bitmaps of dense uid ids ({@link ReminderState}); once the task has fired
 * or was cancelled only this record stays, so that later events are refused with the right reason.
 */
public class ReminderTask {
    public static final String OPEN = "open";
    public static final String FIRED = "fired";
    public static final String CANCELLED = "cancelled";

    public String taskId;
    public long fireAt;
    public String zone;
    public String title;
    public String body;
    public String status;

    /** Event time of the create. */
    public long createdAt;

    public ReminderTask() {}

    public boolean isOpen() {
        return OPEN.equals(status);
    }
}
