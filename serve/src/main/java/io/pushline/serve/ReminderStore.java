package io.pushline.serve;

import java.io.IOException;
import java.util.List;

/** What the reminder endpoints read: the reminders stage's mirror. */
public interface ReminderStore extends AutoCloseable {
    /**
     * The open tasks {@code uid} subscribed to that are frozen at {@code now} and fire in {@code
     * (now + marginMs, now + windowMs]}, by fireAt.
     */
    List<PullableTask> pullable(String uid, long now, long marginMs, long windowMs)
            throws IOException;

    /** A task as the reminders stage last mirrored it. */
    record TaskView(
            String taskId,
            long fireAt,
            String zone,
            String title,
            String body,
            String status,
            long subscribers,
            long pulled) {}

    /** The task {@code taskId}, or null when the reminders stage has not seen it. */
    TaskView task(String taskId) throws IOException;

    @Override
    void close() throws IOException;
}
