package io.pushline.reminders;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderTags;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Random traces through the task operator and the pacer (events arriving shuffled), against a plain
 * in-memory reading of the contract: the same refusals in the same order, the same pulls, and per
 * task the same pushed uids and the same send times as the greedy schedule.
 */
class ReminderModelTest {
    private static final String[] ZONES = {
        "UTC", "Asia/Shanghai", "America/Sao_Paulo", "America/New_York", "Pacific/Chatham"
    };
    private static final long HOUR = 3_600_000L;

    /** Around Sao Paulo's skipped midnight of 2018-11-04. */
    private static final long BASE = Instant.parse("2018-11-02T00:00:00Z").toEpochMilli();

    @Test
    void randomTracesDecideAsTheContract() throws Exception {
        Random random = new Random(20261124);
        for (int run = 0; run < 150; run++) {
            int rate = 1 + random.nextInt(4);
            List<ReminderEvent> trace = trace(random);
            Outcome expected = model(trace, rate);
            Outcome actual = operators(trace, rate, random);
            assertThat(actual.rejected).as("run %d: refusals", run).isEqualTo(expected.rejected);
            assertThat(actual.pulled).as("run %d: pulls", run).isEqualTo(expected.pulled);
            assertThat(actual.pushed).as("run %d: pushed uids", run).isEqualTo(expected.pushed);
            assertThat(actual.sendTimes)
                    .as("run %d: send times", run)
                    .isEqualTo(expected.sendTimes);
        }
    }

    /** Per task: the uids pulled, pushed, and the sorted send times of its pushes. */
    private static final class Outcome {
        final List<String> rejected = new ArrayList<>();
        final Map<String, TreeSet<Integer>> pulled = new TreeMap<>();
        final Map<String, TreeSet<Integer>> pushed = new TreeMap<>();
        final Map<String, List<Long>> sendTimes = new TreeMap<>();

        void sort() {
            sendTimes.values().forEach(Collections::sort);
        }
    }

    private static List<ReminderEvent> trace(Random r) {
        List<ReminderEvent> out = new ArrayList<>();
        int n = 20 + r.nextInt(60);
        for (int i = 0; i < n; i++) {
            long ts = BASE + r.nextInt(96) * HOUR + (r.nextBoolean() ? 0 : r.nextInt(1000));
            String task = "t" + r.nextInt(4);
            int uid = r.nextInt(8);
            ReminderEvent e;
            switch (r.nextInt(8)) {
                case 0:
                case 1:
                    e = Events.create(ts, task, fireAt(r), ZONES[r.nextInt(ZONES.length)]);
                    break;
                case 2:
                    e = Events.update(ts, task, fireAt(r), ZONES[r.nextInt(ZONES.length)]);
                    break;
                case 3:
                    e = Events.cancel(ts, task);
                    break;
                case 4:
                    e = Events.unsubscribe(ts, task, uid);
                    break;
                case 5:
                    e = Events.pull(ts, task, uid);
                    break;
                default:
                    e = Events.subscribe(ts, task, uid);
            }
            out.add(e);
        }
        return out;
    }

    /** Few distinct times, so that tasks often fire in the same second and share it. */
    private static long fireAt(Random r) {
        return BASE + (12 + r.nextInt(8) * 12) * HOUR + r.nextInt(3) * 400;
    }

    private static Outcome operators(List<ReminderEvent> trace, int rate, Random r)
            throws Exception {
        Outcome o = new Outcome();
        List<FiredTask> fired;
        List<ReminderEvent> shuffled = new ArrayList<>(trace);
        Collections.shuffle(shuffled, r);
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new TaskOperator(), (ReminderEvent e) -> e.taskId, Types.STRING)) {
            h.open();
            for (ReminderEvent e : shuffled) {
                h.processElement(new StreamRecord<>(e, e.ts));
            }
            h.processWatermark(new Watermark(Long.MAX_VALUE));
            fired = new ArrayList<>(h.extractOutputValues());
            var rejected = h.getSideOutput(ReminderTags.REJECTED);
            if (rejected != null) {
                rejected.forEach(rec -> o.rejected.add(line(rec.getValue())));
            }
        }
        Collections.shuffle(fired, r);
        try (var h = new OneInputStreamOperatorTestHarness<>(new ReminderPacer(rate, 3, false))) {
            h.open();
            for (FiredTask f : fired) {
                h.processElement(new StreamRecord<>(f, f.fireAt));
            }
            h.processWatermark(new Watermark(Long.MAX_VALUE));
            for (ReminderChunk c : h.extractOutputValues()) {
                for (int id : c.ids) {
                    if (c.action.equals(ReminderLine.PULLED)) {
                        assertThat(c.at).isEqualTo(c.fireAt);
                        o.pulled.computeIfAbsent(c.taskId, k -> new TreeSet<>()).add(id);
                    } else {
                        assertThat(o.pushed.computeIfAbsent(c.taskId, k -> new TreeSet<>()).add(id))
                                .isTrue();
                        o.sendTimes.computeIfAbsent(c.taskId, k -> new ArrayList<>()).add(c.at);
                    }
                }
            }
        }
        o.sort();
        return o;
    }

    private static String line(ReminderLine l) {
        return l.ts + " " + l.taskId + " " + l.uid + " " + l.reason;
    }

    /** The contract, read plainly. */
    private static Outcome model(List<ReminderEvent> trace, int rate) {
        Outcome o = new Outcome();
        List<ReminderEvent> events = new ArrayList<>(trace);
        events.sort(
                Comparator.<ReminderEvent>comparingLong(e -> e.ts).thenComparingLong(e -> e.seq));
        Map<String, Task> tasks = new HashMap<>();
        List<Task> firedInOrder = new ArrayList<>();
        for (ReminderEvent e : events) {
            fireUpTo(tasks, e.ts, firedInOrder);
            Task t = tasks.get(e.taskId);
            String reason = null;
            if (e.isTask()) {
                if (e.op.equals(ReminderEvent.CREATE) && t == null) {
                    if (e.fireAt <= e.ts) {
                        reason = "past";
                    } else {
                        t = new Task();
                        t.id = e.taskId;
                        t.fireAt = e.fireAt;
                        t.zone = e.zone;
                        tasks.put(t.id, t);
                    }
                } else if (t == null) {
                    reason = "unknown_task";
                } else if (t.status.equals("fired")) {
                    reason = "fired";
                } else if (t.status.equals("cancelled")) {
                    reason = "cancelled";
                } else if (e.op.equals(ReminderEvent.CANCEL)) {
                    if (e.ts >= freeze(t.fireAt, t.zone)) {
                        reason = "frozen";
                    } else {
                        t.status = "cancelled";
                    }
                } else if (e.ts >= freeze(t.fireAt, t.zone) || e.ts >= freeze(e.fireAt, e.zone)) {
                    reason = "frozen";
                } else {
                    t.fireAt = e.fireAt;
                    t.zone = e.zone;
                }
            } else if (t == null) {
                reason = "unknown_task";
            } else if (t.status.equals("cancelled")) {
                reason = "cancelled";
            } else if (t.status.equals("fired")) {
                reason = "closed";
            } else if (e.type.equals(ReminderEvent.SUBSCRIBE)) {
                t.subscribers.add(e.uidId);
            } else if (e.type.equals(ReminderEvent.UNSUBSCRIBE)) {
                if (!t.subscribers.remove(e.uidId)) {
                    reason = "not_subscribed";
                } else {
                    t.pulled.remove(e.uidId);
                }
            } else if (e.ts < freeze(t.fireAt, t.zone)) {
                reason = "not_frozen";
            } else if (!t.subscribers.contains(e.uidId)) {
                reason = "not_subscribed";
            } else {
                t.pulled.add(e.uidId);
            }
            if (reason != null) {
                o.rejected.add(
                        e.ts + " " + e.taskId + " " + (e.isTask() ? null : e.uid) + " " + reason);
            }
        }
        fireUpTo(tasks, Long.MAX_VALUE, firedInOrder);
        // the greedy schedule, second by second
        Map<Long, Integer> used = new HashMap<>();
        for (Task t : firedInOrder) {
            for (int uid : t.subscribers) {
                if (t.pulled.contains(uid)) {
                    o.pulled.computeIfAbsent(t.id, k -> new TreeSet<>()).add(uid);
                    continue;
                }
                long second = Math.floorDiv(t.fireAt, 1000L);
                while (used.getOrDefault(second, 0) >= rate) {
                    second++;
                }
                used.merge(second, 1, Integer::sum);
                o.pushed.computeIfAbsent(t.id, k -> new TreeSet<>()).add(uid);
                o.sendTimes
                        .computeIfAbsent(t.id, k -> new ArrayList<>())
                        .add(Math.max(t.fireAt, second * 1000L));
            }
        }
        o.sort();
        return o;
    }

    /** Fires, in firing order, the open tasks due before an event at {@code ts}. */
    private static void fireUpTo(Map<String, Task> tasks, long ts, List<Task> fired) {
        tasks.values().stream()
                .filter(t -> t.status.equals("open") && t.fireAt <= ts)
                .sorted(Comparator.<Task>comparingLong(t -> t.fireAt).thenComparing(t -> t.id))
                .forEach(
                        t -> {
                            t.status = "fired";
                            fired.add(t);
                        });
        fired.sort(Comparator.<Task>comparingLong(t -> t.fireAt).thenComparing(t -> t.id));
    }

    /** The first instant of fireAt's local date in the zone, found through the zone's rules. */
    private static long freeze(long fireAt, String zone) {
        ZoneId z = ZoneId.of(zone);
        LocalDateTime midnight =
                Instant.ofEpochMilli(fireAt).atZone(z).toLocalDate().atTime(LocalTime.MIDNIGHT);
        ZoneOffsetTransition gap = z.getRules().getTransition(midnight);
        if (gap != null && gap.isGap()) {
            return gap.getInstant().toEpochMilli();
        }
        return midnight.atZone(z).toInstant().toEpochMilli();
    }

    private static final class Task {
        String id;
        long fireAt;
        String zone;
        String status = "open";
        final TreeSet<Integer> subscribers = new TreeSet<>();
        final TreeSet<Integer> pulled = new TreeSet<>();
    }
}
