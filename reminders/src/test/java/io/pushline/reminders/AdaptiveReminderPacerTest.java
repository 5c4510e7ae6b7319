package io.pushline.reminders;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderLine;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The reminder pacer against a model of the stages between it and the vendor pacers: they absorb
 * {@value #ABSORBED_PER_SECOND} ids a second, and what they hold shows in the pacers' reports as
 * the lag of their event time, as in the job.
 */
class AdaptiveReminderPacerTest {
    static final int RATE = 30_000;
    static final int ABSORBED_PER_SECOND = 10_000;
    static final int PUSHES = 100_000;
    static final long TARGET_MS = 200;
    static final long FIRE_AT = 10_000;

    /** What a run through the model saw. */
    record Run(long maxQueuedAfterLearning, int pushed, long lastPushAt) {}

    @Test
    void pushesLeaveAtWhatTheStagesAbsorbSoTheQueueBeforeTheGateStaysNearTheTarget()
            throws Exception {
        Run run;
        try (var h =
                new TwoInputStreamOperatorTestHarness<>(
                        new AdaptiveReminderPacer(RATE, Reminders.CHUNK_SIZE, 0, TARGET_MS))) {
            h.open();
            run =
                    run(
                            h,
                            task -> h.processElement1(task),
                            mark -> h.processWatermark1(mark),
                            status -> h.processElement2(new StreamRecord<>(status)));
        }
        assertThat(run.pushed()).as("every push once").isEqualTo(PUSHES);
        // 200 ms of queue is 2,000 ids; the rate overshoots by at most a few reports' worth
        assertThat(run.maxQueuedAfterLearning())
                .as("ids queued before the gate once the rate is learned")
                .isLessThan(ABSORBED_PER_SECOND / 2);
        assertThat(run.lastPushAt())
                .as("the task takes about what the stages need, not much more")
                .isLessThan(FIRE_AT + PUSHES * 1000L / ABSORBED_PER_SECOND * 13 / 10);
    }

    @Test
    void withoutTheReportsThePushesFillTheStagesAtTheContractsRate() throws Exception {
        Run run;
        try (var h =
                new OneInputStreamOperatorTestHarness<>(
                        new ReminderPacer(RATE, Reminders.CHUNK_SIZE, true))) {
            h.open();
            run = run(h, task -> h.processElement(task), h::processWatermark, status -> {});
        }
        assertThat(run.pushed()).isEqualTo(PUSHES);
        assertThat(run.maxQueuedAfterLearning())
                .as("the model queues what the contract's rate sends beyond what it absorbs")
                .isGreaterThan(3 * ABSORBED_PER_SECOND);
    }

    /**
     * Without reports (a fresh job: the vendor pacers report only vendors they have sent to) the
     * pushes start at a few thousand a second and grow to the contract's rate within two seconds.
     */
    @Test
    void withoutReportsTheRateGrowsToTheContractsWithinSeconds() throws Exception {
        try (var h =
                new TwoInputStreamOperatorTestHarness<>(
                        new AdaptiveReminderPacer(RATE, Reminders.CHUNK_SIZE, 0, TARGET_MS))) {
            h.open();
            h.setProcessingTime(FIRE_AT);
            h.processElement1(new StreamRecord<>(task(), FIRE_AT));
            Map<Long, Integer> perSecond = new HashMap<>();
            Set<Integer> seen = new HashSet<>();
            for (long t = FIRE_AT; seen.size() < PUSHES && t < FIRE_AT + 20_000; t += 10) {
                h.setProcessingTime(t);
                h.processWatermark1(new Watermark(t - 50));
                int n = drain(h, seen);
                perSecond.merge(t / 1000 * 1000, n, Integer::sum);
            }
            assertThat(seen).hasSize(PUSHES);
            assertThat(perSecond.get(FIRE_AT)).as("the first second, slowly").isLessThan(RATE);
            assertThat(perSecond).containsEntry(FIRE_AT + 2_000, RATE);
            assertThat(perSecond.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(RATE));
        }
    }

    interface Step<T> {
        void accept(T value) throws Exception;
    }

    /**
     * Fires a task of {@value #PUSHES} at {@value #FIRE_AT} and runs the wall clock in 10 ms steps
     * for 30 s: the modelled stages take what the pacer emits and absorb {@value
     * #ABSORBED_PER_SECOND} a second; every 200 ms a vendor pacer reports its watermark 100 ms plus
     * what they hold behind the wall clock.
     */
    private static Run run(
            AbstractStreamOperatorTestHarness<ReminderChunk> h,
            Step<StreamRecord<FiredTask>> fire,
            Step<Watermark> watermark,
            Step<PacingStatus> report)
            throws Exception {
        h.setProcessingTime(FIRE_AT - 5_000);
        // the stages' lag without a queue, learned before the task fires
        for (long t = FIRE_AT - 5_000; t < FIRE_AT; t += 200) {
            h.setProcessingTime(t);
            watermark.accept(new Watermark(t - 50));
            report.accept(status(t, 100));
        }
        fire.accept(new StreamRecord<>(task(), FIRE_AT));
        Set<Integer> seen = new HashSet<>();
        double queued = 0;
        long maxQueued = 0;
        long lastPushAt = 0;
        for (long t = FIRE_AT; t < FIRE_AT + 30_000; t += 10) {
            h.setProcessingTime(t);
            watermark.accept(new Watermark(t - 50));
            int out = drain(h, seen);
            if (out > 0) {
                lastPushAt = t;
            }
            queued = Math.max(0, queued + out - ABSORBED_PER_SECOND / 100.0);
            if (t >= FIRE_AT + 3_000) {
                maxQueued = Math.max(maxQueued, Math.round(queued));
            }
            if (t % 200 == 0) {
                report.accept(status(t, 100 + Math.round(queued * 1000 / ABSORBED_PER_SECOND)));
            }
        }
        return new Run(maxQueued, seen.size(), lastPushAt);
    }

    /** Takes the pushes out so far into {@code seen}; returns how many; none twice. */
    private static int drain(
            AbstractStreamOperatorTestHarness<ReminderChunk> h, Set<Integer> seen) {
        int n = 0;
        Object o;
        while ((o = h.getOutput().poll()) != null) {
            if (o instanceof StreamRecord<?> r
                    && r.getValue() instanceof ReminderChunk c
                    && c.action.equals(ReminderLine.PUSH)) {
                for (int id : c.ids) {
                    assertThat(seen.add(id)).as("pushed twice: %d", id).isTrue();
                    n++;
                }
            }
        }
        return n;
    }

    private static FiredTask task() {
        return ReminderPacerTest.fired("t", FIRE_AT, 0, PUSHES);
    }

    private static PacingStatus status(long now, long lagMs) {
        PacingStatus s = PacingStatus.of("fcm", 0, 0, 0, now);
        s.watermark = now - lagMs;
        return s;
    }
}
