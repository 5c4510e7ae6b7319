package io.pushline.serve;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.pushline.schema.reminders.ReminderTask;
import io.pushline.schema.reminders.ReminderTimes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code GET /v1/reminders/{uid}}: the reminders a user may pull ahead of their push (those firing
 * within the pull window, at least the margin away). It records nothing: an {@code <img>} on any
 * page could otherwise suppress anyone's reminders. The app records what it pulled with {@code POST
 * /v1/reminders/{uid}/pull} ({@link WriteApi}).
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
        r.get("/v1/reminders/tasks/{taskId}", this::task);
    }

    /** A task, its state (open, frozen, fired, cancelled) and counts as last mirrored. */
    private void task(Context ctx) throws IOException {
        String taskId = Server.id(ctx, "taskId");
        ReminderStore.TaskView t = reminders.task(taskId);
        if (t == null) {
            throw new Server.NotFound(
                    "taskId: the reminders stage has not seen task '" + taskId + "'");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("taskId", t.taskId());
        m.put("fireAt", t.fireAt());
        m.put("zone", t.zone());
        m.put("title", t.title());
        m.put("body", t.body());
        m.put("state", state(t, clock.getAsLong()));
        m.put("subscribers", t.subscribers());
        m.put("pulled", t.pulled());
        Server.json(ctx, 200, m);
    }

    /** An open task is frozen from its freeze time on: no more update, pulls allowed. */
    static String state(ReminderStore.TaskView t, long now) {
        if (ReminderTask.CANCELLED.equals(t.status())) {
            return "cancelled";
        }
        if (ReminderTask.FIRED.equals(t.status())) {
            return "fired";
        }
        return now >= ReminderTimes.freeze(t.fireAt(), t.zone()) ? "frozen" : "open";
    }

    private void pull(Context ctx) throws IOException {
        String uid = Server.id(ctx, "uid");
        long now = clock.getAsLong();
        // a GET changes nothing: the app records its pull with POST /v1/reminders/{uid}/pull
        List<PullableTask> tasks = reminders.pullable(uid, now, marginMs, windowMs);
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
