package io.pushline.reminders;

import static io.pushline.reminders.Events.cancel;
import static io.pushline.reminders.Events.create;
import static io.pushline.reminders.Events.pull;
import static io.pushline.reminders.Events.subscribe;
import static io.pushline.reminders.Events.unsubscribe;
import static io.pushline.reminders.Events.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.eval.IdSet;
import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderTags;
import io.pushline.schema.reminders.ReminderTimes;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.IntIterator;

class TaskOperatorTest {
    /** 2026-01-18 10:00 in Shanghai. */
    static final long FIRE =
            ZonedDateTime.parse("2026-01-18T10:00+08:00[Asia/Shanghai]").toInstant().toEpochMilli();

    /** Its freeze: midnight of 18 January in Shanghai. */
    static final long FREEZE = FIRE - 10 * 3_600_000L;

    static final String SH = "Asia/Shanghai";
    static final long DAY = 86_400_000L;

    @Test
    void aTaskFiresAtItsTimeWithItsSubscribersPushedAndItsPullsNot() throws Exception {
        try (var h = harness(null)) {
            feed(
                    h,
                    create(FIRE - 3 * DAY, "t1", FIRE, SH),
                    subscribe(FIRE - 2 * DAY, "t1", 1),
                    subscribe(FIRE - 2 * DAY, "t1", 2),
                    subscribe(FIRE - 2 * DAY, "t1", 3),
                    pull(FREEZE, "t1", 2));
            h.processWatermark(new Watermark(FIRE - 1));
            assertThat(fired(h)).isEmpty();
            h.processWatermark(new Watermark(FIRE));
            List<FiredTask> fired = fired(h);
            assertThat(fired).hasSize(1);
            assertThat(ids(fired.get(0).push)).containsExactly(1, 3);
            assertThat(ids(fired.get(0).pulled)).containsExactly(2);
            assertThat(h.extractOutputStreamRecords().get(0).getTimestamp()).isEqualTo(FIRE);
            assertThat(rejected(h)).isEmpty();
        }
    }

    @Test
    void aTaskFiresOnceBeforeTheFirstEventAtOrAfterItsTime() throws Exception {
        try (var h = harness(null)) {
            feed(
                    h,
                    create(FIRE - DAY, "t1", FIRE, SH),
                    subscribe(FIRE - 1, "t1", 1),
                    subscribe(FIRE, "t1", 2),
                    update(FIRE + 5, "t1", FIRE + DAY, SH),
                    cancel(FIRE + 6, "t1"),
                    pull(FIRE + 7, "t1", 1),
                    unsubscribe(FIRE + 8, "t1", 1));
            h.processWatermark(new Watermark(FIRE + 10));
            h.processWatermark(new Watermark(FIRE + 2 * DAY));
            assertThat(fired(h)).hasSize(1);
            assertThat(ids(fired(h).get(0).push)).containsExactly(1);
            assertThat(reasons(h)).containsExactly("closed", "fired", "fired", "closed", "closed");
        }
    }

    @Test
    void createOfAnExistingTaskIsAnUpdateAndACreateInThePastIsRefused() throws Exception {
        try (var h = harness(null)) {
            feed(
                    h,
                    create(FIRE - 3 * DAY, "t1", FIRE, SH),
                    subscribe(FIRE - 3 * DAY, "t1", 1),
                    create(FIRE - 2 * DAY, "t1", FIRE + 3_600_000L, SH), // moves it
                    create(FIREh(0), "t2", FIREh(0), SH), // fireAt == ts: past
                    create(FIRE - DAY, "t3", FIRE - DAY - 1, SH), // past
                    subscribe(FIRE - DAY, "t3", 1)); // never created
            h.processWatermark(new Watermark(FIRE));
            assertThat(fired(h)).isEmpty();
            h.processWatermark(new Watermark(FIRE + 3_600_000L));
            assertThat(fired(h)).hasSize(1);
            assertThat(fired(h).get(0).fireAt).isEqualTo(FIRE + 3_600_000L);
            assertThat(ids(fired(h).get(0).push)).containsExactly(1);
            assertThat(reasons(h)).containsExactly("past", "unknown_task", "past");

            // a create of a fired task is an update of a fired task
            feed(h, create(FIRE + 2 * DAY, "t1", FIRE + 5 * DAY, SH));
            h.processWatermark(new Watermark(FIRE + 3 * DAY));
            assertThat(reasons(h)).endsWith("fired");
        }
    }

    private static long FIREh(int hours) {
        return FIRE + hours * 3_600_000L;
    }

    @Test
    void updatesAndCancelsAreRefusedInTheContractsOrder() throws Exception {
        try (var h = harness(null)) {
            feed(
                    h,
                    update(1_000, "nope", FIRE, SH), // unknown_task
                    cancel(1_001, "nope"), // unknown_task
                    create(FIRE - 5 * DAY, "c", FIRE, SH),
                    cancel(FIRE - 4 * DAY, "c"),
                    update(FIRE - 3 * DAY, "c", FIRE, SH), // cancelled
                    cancel(FIRE - 3 * DAY, "c"), // cancelled
                    subscribe(FIRE - 3 * DAY, "c", 1), // cancelled
                    create(FIRE - 5 * DAY, "f", FIRE, SH),
                    update(FREEZE - 1, "f", FIRE + DAY, SH), // allowed: before both freezes
                    update(FREEZE + DAY - 1, "f", FIRE + 2 * DAY, SH), // allowed
                    cancel(FREEZE + 2 * DAY, "f"), // frozen: at its freeze
                    update(FREEZE + 2 * DAY, "f", FIRE + 9 * DAY, SH), // frozen (current)
                    create(FIRE - 5 * DAY, "g", FIRE + 5 * DAY, SH),
                    update(FIRE - 4 * DAY, "g", FIRE - 4 * DAY, SH), // frozen: new fireAt <= ts
                    // Los Angeles is still on the 17th at FIRE: its freeze is hours before
                    update(FREEZE - 1, "g", FIRE, "America/Los_Angeles"), // frozen
                    update(FREEZE, "g", FIRE, SH), // frozen: at the new fireAt's freeze
                    update(FREEZE, "g", FIRE, "UTC")); // allowed: UTC's 18th starts 8 h later
            h.processWatermark(new Watermark(FIRE + 10 * DAY));
            assertThat(reasons(h))
                    .containsExactly(
                            "unknown_task",
                            "unknown_task",
                            "frozen",
                            "cancelled",
                            "cancelled",
                            "cancelled",
                            "frozen",
                            "frozen",
                            "frozen",
                            "frozen");
            assertThat(fired(h))
                    .extracting(f -> f.taskId, f -> f.fireAt)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("g", FIRE),
                            org.assertj.core.groups.Tuple.tuple("f", FIRE + 2 * DAY));
        }
    }

    /**
     * A writer may stamp an event with any ts. An update stamped before the freeze that arrives
     * when the job's time is past it is handled at the job's time: frozen, the task unchanged.
     */
    @Test
    void aBackdatedUpdateCannotChangeAFrozenTask() throws Exception {
        try (var h = harness(null)) {
            feed(h, create(FIRE - 5 * DAY, "b", FIRE, SH));
            h.processWatermark(new Watermark(FREEZE + 60_000)); // the job is past the freeze
            ReminderEvent late = update(FREEZE - DAY, "b", FIRE + DAY, SH); // backdated a day
            h.processElement(new StreamRecord<>(late, late.ts));
            ReminderEvent cancel = cancel(FREEZE - DAY, "b");
            h.processElement(new StreamRecord<>(cancel, cancel.ts));
            h.processWatermark(new Watermark(FIRE + 10 * DAY));
            assertThat(reasons(h)).containsExactly("frozen", "frozen");
            assertThat(fired(h))
                    .extracting(f -> f.taskId, f -> f.fireAt)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("b", FIRE));
        }
    }

    @Test
    void subscriptionsAreIdempotentAndAnUnsubscribeForgetsThePull() throws Exception {
        try (var h = harness(null)) {
            feed(
                    h,
                    create(FIRE - 5 * DAY, "t", FIRE, SH),
                    subscribe(FIRE - 4 * DAY, "t", 7),
                    subscribe(FIRE - 4 * DAY, "t", 7),
                    subscribe(FIRE - 4 * DAY, "t", 8),
                    unsubscribe(FIRE - 4 * DAY, "t", 9), // not_subscribed
                    pull(FREEZE - 1, "t", 7), // not_frozen
                    pull(FREEZE, "t", 9), // not_subscribed
                    pull(FREEZE, "t", 7),
                    pull(FREEZE + 1, "t", 7), // twice: nothing changes
                    pull(FREEZE + 1, "t", 8),
                    unsubscribe(FREEZE + 2, "t", 8), // drops its pull
                    subscribe(FREEZE + 3, "t", 8)); // back, not pulled
            h.processWatermark(new Watermark(FIRE));
            assertThat(reasons(h))
                    .containsExactly("not_subscribed", "not_frozen", "not_subscribed");
            FiredTask f = fired(h).get(0);
            assertThat(ids(f.push)).containsExactly(8);
            assertThat(ids(f.pulled)).containsExactly(7);
            assertThat(f.pushCount).isEqualTo(1);
            assertThat(f.pulledCount).isEqualTo(1);
        }
    }

    @Test
    void theFreezeIsMidnightOfTheFireDateInTheTasksZoneOrTheFirstTimeThatDayHas() {
        // the same instant freezes at different moments in different zones
        long fire = ZonedDateTime.parse("2026-03-01T03:00Z").toInstant().toEpochMilli();
        assertThat(ReminderTimes.freeze(fire, "UTC")).isEqualTo(epoch("2026-03-01T00:00Z"));
        assertThat(ReminderTimes.freeze(fire, "Asia/Tokyo"))
                .isEqualTo(epoch("2026-03-01T00:00+09:00"));
        assertThat(ReminderTimes.freeze(fire, "America/New_York"))
                .isEqualTo(epoch("2026-02-28T00:00-05:00"));
        // Sao Paulo skipped midnight on 2018-11-04 (00:00 -> 01:00): the day began at 01:00
        long saoPaulo = epoch("2018-11-04T10:00-02:00");
        assertThat(ReminderTimes.freeze(saoPaulo, "America/Sao_Paulo"))
                .isEqualTo(epoch("2018-11-04T01:00-02:00"));
        // New York's spring change is at 02:00, so midnight exists that day
        long ny = epoch("2026-03-08T12:00-04:00");
        assertThat(ReminderTimes.freeze(ny, "America/New_York"))
                .isEqualTo(epoch("2026-03-08T00:00-05:00"));
        // a Link name is a zone too
        assertThat(ReminderTimes.freeze(fire, "Asia/Calcutta"))
                .isEqualTo(epoch("2026-03-01T00:00+05:30"));
    }

    @Test
    void aPullIsFrozenOnlyFromTheFreezeAcrossAClockChange() throws Exception {
        long fire = epoch("2018-11-04T10:00-02:00");
        long freeze = epoch("2018-11-04T01:00-02:00");
        try (var h = harness(null)) {
            feed(
                    h,
                    create(fire - 5 * DAY, "t", fire, "America/Sao_Paulo"),
                    subscribe(fire - 5 * DAY, "t", 1),
                    pull(freeze - 1, "t", 1), // 23:59:59.999 of the 3rd: not frozen
                    pull(freeze, "t", 1));
            h.processWatermark(new Watermark(fire));
            assertThat(reasons(h)).containsExactly("not_frozen");
            assertThat(ids(fired(h).get(0).pulled)).containsExactly(1);
        }
    }

    @Test
    void aRestoredTaskFiresOnceWithTheSubscribersOfTheCheckpoint() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(null)) {
            feed(
                    h,
                    create(FIRE - 5 * DAY, "t", FIRE, SH),
                    subscribe(FIRE - 4 * DAY, "t", 1),
                    subscribe(FIRE - 4 * DAY, "t", 2));
            h.processWatermark(new Watermark(FIRE - 4 * DAY));
            feed(h, subscribe(FIRE - 3 * DAY, "t", 3)); // on the heap only, not yet at a watermark
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(snapshot)) {
            feed(h, unsubscribe(FIRE - 2 * DAY, "t", 1));
            h.processWatermark(new Watermark(FIRE));
            h.processWatermark(new Watermark(FIRE + DAY));
            assertThat(fired(h)).hasSize(1);
            assertThat(ids(fired(h).get(0).push)).containsExactly(2, 3);
            OperatorSubtaskState after = h.snapshot(2, 2);
            try (var again = harness(after)) {
                again.processWatermark(new Watermark(FIRE + 2 * DAY));
                assertThat(fired(again)).as("fired once, not again after a restore").isEmpty();
                feed(again, subscribe(FIRE + 2 * DAY, "t", 4));
                again.processWatermark(new Watermark(FIRE + 3 * DAY));
                assertThat(reasons(again)).containsExactly("closed");
            }
        }
    }

    static long epoch(String zoned) {
        return ZonedDateTime.parse(zoned).toInstant().toEpochMilli();
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, ReminderEvent, FiredTask> harness(
            OperatorSubtaskState restore) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new TaskOperator(), (ReminderEvent e) -> e.taskId, Types.STRING);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    private static void feed(
            KeyedOneInputStreamOperatorTestHarness<String, ReminderEvent, FiredTask> h,
            ReminderEvent... events)
            throws Exception {
        for (ReminderEvent e : events) {
            h.processElement(new StreamRecord<>(e, e.ts));
        }
    }

    private static List<FiredTask> fired(
            KeyedOneInputStreamOperatorTestHarness<String, ReminderEvent, FiredTask> h) {
        return h.extractOutputValues();
    }

    private static List<ReminderLine> rejected(
            KeyedOneInputStreamOperatorTestHarness<String, ReminderEvent, FiredTask> h) {
        var q = h.getSideOutput(ReminderTags.REJECTED);
        List<ReminderLine> out = new ArrayList<>();
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    private static List<String> reasons(
            KeyedOneInputStreamOperatorTestHarness<String, ReminderEvent, FiredTask> h) {
        return rejected(h).stream().map(r -> r.reason).toList();
    }

    static List<Integer> ids(byte[] bits) {
        List<Integer> out = new ArrayList<>();
        for (IntIterator it = IdSet.fromBytes(bits).ids(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }
}
