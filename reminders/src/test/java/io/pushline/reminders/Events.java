package io.pushline.reminders;

import io.pushline.schema.reminders.ReminderEvent;

/** Reminder events for tests; uids {@code u<N>} have the dense id N. */
final class Events {
    private static long seq;

    private Events() {}

    static ReminderEvent create(long ts, String task, long fireAt, String zone) {
        return task(ts, ReminderEvent.CREATE, task, fireAt, zone);
    }

    static ReminderEvent update(long ts, String task, long fireAt, String zone) {
        return task(ts, ReminderEvent.UPDATE, task, fireAt, zone);
    }

    static ReminderEvent cancel(long ts, String task) {
        ReminderEvent e = base(ts, ReminderEvent.TASK, task);
        e.op = ReminderEvent.CANCEL;
        return e;
    }

    static ReminderEvent subscribe(long ts, String task, int uid) {
        return user(ts, ReminderEvent.SUBSCRIBE, task, uid);
    }

    static ReminderEvent unsubscribe(long ts, String task, int uid) {
        return user(ts, ReminderEvent.UNSUBSCRIBE, task, uid);
    }

    static ReminderEvent pull(long ts, String task, int uid) {
        return user(ts, ReminderEvent.PULL, task, uid);
    }

    private static ReminderEvent task(long ts, String op, String task, long fireAt, String zone) {
        ReminderEvent e = base(ts, ReminderEvent.TASK, task);
        e.op = op;
        e.fireAt = fireAt;
        e.zone = zone;
        e.title = "title of " + task;
        e.body = "body";
        return e;
    }

    private static ReminderEvent user(long ts, String type, String task, int uid) {
        ReminderEvent e = base(ts, type, task);
        e.uid = "u" + uid;
        e.uidId = uid;
        return e;
    }

    private static ReminderEvent base(long ts, String type, String task) {
        ReminderEvent e = new ReminderEvent();
        e.ts = ts;
        e.seq = ++seq;
        e.type = type;
        e.taskId = task;
        return e;
    }
}
