package io.pushline.serve;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code GET /v1/reminders/{uid}}: the reminders a user may pull ahead of their push (those firing
 * within the pull window, at least the margin away), each recorded as pulled so the push does not
 * follow (reminders/README.md).
 */
final class ReminderApi implements Api {
    private final ReminderStore reminders;
    private final LongSupplier clock;
    private final long marginMs;
    private final long windowMs;

    ReminderApi(ReminderStore reminders, LongSupplier clock, long marginMs, long windowMs) {
        this.reminders = reminders;
        this.clock = clock;
        this.marginMs = marginMs;
        this.windowMs = windowMs;
    }

    @Override
    public void routes(RoutesConfig r) {
        r.get("/v1/reminders/{uid}", this::pull);
    }

    private void pull(Context ctx) throws IOException {
        String uid = Server.id(ctx, "uid");
        long now = clock.getAsLong();
        List<PullableTask> tasks = reminders.pullable(uid, now, marginMs, windowMs);
        if (!tasks.isEmpty()) {
            reminders.recordPulls(uid, tasks, now);
        }
        List<Map<String, Object>> out = new ArrayList<>(tasks.size());
        for (PullableTask t : tasks) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("taskId", t.taskId());
            m.put("fireAt", t.fireAt());
            m.put("title", t.title());
            m.put("body", t.body());
            out.add(m);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("uid", uid);
        body.put("tasks", out);
        Server.json(ctx, 200, body);
    }
}
