package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderTimes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The demo's reminders: two tasks firing in the same second, their subscribers, some pulls ahead
 * (as the pull endpoint records them), one update refused as frozen and one subscribe to a task
 * that does not exist; and the model to check the dispatch job's output against.
 */
final class DemoReminders {
    static final String[] TASKS = {"game-launch", "season-finale"};
    static final String ZONE = "UTC";

    final List<String[]> tasks = new ArrayList<>();
    final List<String[]> subscriptions = new ArrayList<>();
    final long fireAt;
    final Map<String, Set<String>> pushed = new TreeMap<>();
    final Map<String, Set<String>> pulled = new TreeMap<>();
    final List<String> rejected = new ArrayList<>();

    /**
     * @param base the demo's first event time; the tasks fire 40 minutes later, after every device
     *     event, so the registry they meet is the final one
     */
    DemoReminders(DemoData data, long base) {
        fireAt = base + 40 * 60_000L;
        long freeze = ReminderTimes.freeze(fireAt, ZONE);
        // pulls count from the freeze on: midnight of the fire date, or the first event if later
        long pullAt = Math.max(base + 3, freeze);
        for (int t = 0; t < TASKS.length; t++) {
            String id = TASKS[t];
            tasks.add(task("create", id, base + 1, fireAt + 300L * t));
            int every = t == 0 ? 7 : 11;
            Set<String> subs = new TreeSet<>();
            Set<String> pulls = new TreeSet<>();
            for (int i = 0; i < data.uidCount; i += every) {
                String uid = String.format("u-%07d", i);
                subs.add(uid);
                subscriptions.add(user("subscribe", id, uid, base + 2));
                if (i % (every * 10) == 0) {
                    pulls.add(uid);
                    subscriptions.add(user("pull", id, uid, pullAt));
                }
            }
            Set<String> push = new TreeSet<>(subs);
            push.removeAll(pulls);
            pushed.put(id, push);
            pulled.put(id, pulls);
            data.expectPushTo(push);
        }
        // too late to move a frozen task: refused
        tasks.add(task("update", TASKS[0], pullAt, fireAt + 3_600_000L));
        rejected.add(TASKS[0] + "/frozen");
        subscriptions.add(user("subscribe", "no-such-task", "u-0000001", base + 4));
        rejected.add("no-such-task/unknown_task");
    }

    private static String[] task(String op, String id, long ts, long fireAt) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", ts);
        m.put("type", "task");
        m.put("op", op);
        m.put("taskId", id);
        m.put("fireAt", fireAt);
        m.put("zone", ZONE);
        m.put("title", "Reminder: " + id);
        m.put("body", "It starts now: " + id);
        return new String[] {id, Json.write(m)};
    }

    private static String[] user(String type, String task, String uid, long ts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", ts);
        m.put("type", type);
        m.put("taskId", task);
        m.put("uid", uid);
        return new String[] {task, Json.write(m)};
    }

    long subscriptionCount() {
        return subscriptions.size();
    }

    /** Prints pushes and pulls per task against the model; returns whether they match. */
    boolean check(String kafka) {
        Map<String, Set<String>> seenPushed = new TreeMap<>();
        Map<String, Set<String>> seenPulled = new TreeMap<>();
        CommittedRecords.readAll(
                kafka,
                Topics.DECISIONS,
                r -> {
                    Decision d =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8), Decision.class);
                    if (d.msgId == null || !d.msgId.startsWith("reminder-")) {
                        return;
                    }
                    String task = d.msgId.substring("reminder-".length());
                    boolean pull = "pulled".equals(d.reason);
                    (pull ? seenPulled : seenPushed)
                            .computeIfAbsent(task, k -> new HashSet<>())
                            .add(d.uid);
                });
        List<String> refused = new ArrayList<>();
        CommittedRecords.readAll(
                kafka,
                Topics.REMINDER_REJECTED,
                r -> {
                    ReminderLine l =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8),
                                    ReminderLine.class);
                    refused.add(l.taskId + "/" + l.reason);
                });
        boolean ok = true;
        System.out.println("Reminders (two tasks firing in the same second, at one shared rate):");
        System.out.printf(
                "  %-16s %12s %12s %12s %12s%n",
                "task", "pushed", "expected", "pulled", "expected");
        for (String t : TASKS) {
            Set<String> p = seenPushed.getOrDefault(t, Set.of());
            Set<String> q = seenPulled.getOrDefault(t, Set.of());
            System.out.printf(
                    "  %-16s %,12d %,12d %,12d %,12d%n",
                    t, p.size(), pushed.get(t).size(), q.size(), pulled.get(t).size());
            ok &= p.equals(pushed.get(t)) && q.equals(pulled.get(t));
        }
        System.out.println("  refused (reminder.rejected): " + refused);
        ok &= new TreeSet<>(refused).equals(new TreeSet<>(rejected)) && refused.size() == 2;
        System.out.printf(
                "Check: every subscriber who did not pull got one decision per task, every pull"
                        + " was recorded and not pushed, the frozen update and the unknown task"
                        + " were refused. %s%n",
                ok ? "OK" : "FAILED (expected refusals " + rejected + ")");
        return ok;
    }
}
