package io.pushline.serve;

import java.io.IOException;
import java.util.List;

/** What the pull endpoint reads and records. */
public interface ReminderStore extends AutoCloseable {
    /**
     * The open tasks {@code uid} subscribed to that are frozen at {@code now} and fire in {@code
     * (now + marginMs, now + windowMs]}, by fireAt.
     */
    List<PullableTask> pullable(String uid, long now, long marginMs, long windowMs)
            throws IOException;

    /** Records that {@code uid}'s app pulled {@code tasks} at {@code now}, durably. */
    void recordPulls(String uid, List<PullableTask> tasks, long now) throws IOException;

    @Override
    void close() throws IOException;
}
