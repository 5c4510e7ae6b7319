package io.pushline.schema;

import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.reminders.ReminderEvent;

/**
 * One input record after parsing: exactly one of {@code event}, {@code request}, {@code reminder},
 * {@code inbox}, {@code longconn} or {@code dead} is set. Parsing never throws, so a bad record
 * cannot fail the source.
 */
public class ParsedRecord {
    public DeviceEvent event;
    public PushRequest request;
    public DeadLetter dead;

    /** A reminder task or subscription event (reminder.tasks, reminder.subscriptions). */
    public ReminderEvent reminder;

    /** A read of inbox messages (inbox.events). */
    public InboxOp inbox;

    /** A long-connection send, ack or presence (the long-connection job's inputs). */
    public LongconnEvent longconn;

    /** Where the record came from, for dead letters raised after parsing. */
    public String source;

    public String position;

    public ParsedRecord() {}

    public static ParsedRecord of(DeviceEvent e) {
        ParsedRecord r = new ParsedRecord();
        r.event = e;
        return r;
    }

    public static ParsedRecord of(PushRequest p) {
        ParsedRecord r = new ParsedRecord();
        r.request = p;
        return r;
    }

    public static ParsedRecord of(ReminderEvent e) {
        ParsedRecord r = new ParsedRecord();
        r.reminder = e;
        return r;
    }

    public static ParsedRecord of(InboxOp o) {
        ParsedRecord r = new ParsedRecord();
        r.inbox = o;
        return r;
    }

    public static ParsedRecord of(LongconnEvent e) {
        ParsedRecord r = new ParsedRecord();
        r.longconn = e;
        return r;
    }

    public static ParsedRecord of(DeadLetter d) {
        ParsedRecord r = new ParsedRecord();
        r.dead = d;
        return r;
    }

    public ParsedRecord from(String source, String position) {
        this.source = source;
        this.position = position;
        return this;
    }

    /** Event time; bad records have none and must not move watermarks. */
    public long timestamp() {
        if (event != null) {
            return event.ts;
        }
        if (request != null) {
            return request.ts;
        }
        if (reminder != null) {
            return reminder.ts;
        }
        if (inbox != null) {
            return inbox.ts;
        }
        if (longconn != null) {
            return longconn.ts;
        }
        return Long.MIN_VALUE;
    }
}
