package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.pacing.PacingStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's release against a model of the stages between it and the vendor pacers: they
 * absorb {@value #ABSORBED_PER_SECOND} requests a second, and what they hold shows in the pacers'
 * reports as the lag of their event time, as in the job.
 */
class AdaptiveScheduleOperatorTest {
    static final int RELEASE_RATE = 10_000;
    static final int ABSORBED_PER_SECOND = 3_000;
    static final int SLOTS = 30_000;
    static final long TARGET_MS = 200;
    static final long AT = 10_000;

    @Test
    void slotsDueTogetherLeaveAtWhatTheStagesAbsorbNotAtTheFixedRate() throws Exception {
        long maxQueued = run(TARGET_MS);
        // 200 ms of queue is 600 requests; a fixed 10,000/s would queue thousands
        assertThat(maxQueued)
                .as("requests queued before the gate once the rate is learned")
                .isLessThan(ABSORBED_PER_SECOND / 2);
    }

    @Test
    void withoutATargetTheFixedRateFillsTheStages() throws Exception {
        assertThat(run(0))
                .as("the model queues what the fixed rate releases beyond what it absorbs")
                .isGreaterThan(5 * ABSORBED_PER_SECOND);
    }

    /**
     * Loads {@value #SLOTS} slots due at {@value #AT} and runs the clock in 10 ms steps, a
     * watermark 50 ms behind it every step, for 20 s; returns the most the modelled stages held
     * after the first three seconds. Every slot leaves exactly once.
     */
    private static long run(long targetDelayMs) throws Exception {
        Scheduler scheduler = new Scheduler(false, Integer.MAX_VALUE, RELEASE_RATE, targetDelayMs);
        try (var h =
                new KeyedTwoInputStreamOperatorTestHarness<
                        String, ParsedRecord, PacingStatus, RegistryInput>(
                        new AdaptiveScheduleOperator(scheduler),
                        r -> r.request.msgId,
                        s -> "",
                        Types.STRING)) {
            h.open();
            // the stages' lag without a queue, learned before the slots are due
            for (long t = AT - 5_000; t < AT - 100; t += 10) {
                h.setProcessingTime(t);
                h.processWatermark1(new Watermark(t - 50));
                if (t % 200 == 0) {
                    h.processElement2(new StreamRecord<>(status(t, 100)));
                }
            }
            for (int i = 0; i < SLOTS; i++) {
                h.processElement1(new StreamRecord<>(slot(i), AT - 1_000));
            }
            Set<String> seen = new HashSet<>();
            double queued = 0;
            long maxQueued = 0;
            for (long t = AT - 100; t < AT + 20_000; t += 10) {
                h.setProcessingTime(t);
                h.processWatermark1(new Watermark(t - 50));
                int out = drain(h, seen);
                queued = Math.max(0, queued + out - ABSORBED_PER_SECOND / 100.0);
                if (t >= AT + 3_000) {
                    maxQueued = Math.max(maxQueued, Math.round(queued));
                }
                if (t % 200 == 0) {
                    long lag = 100 + Math.round(queued * 1000 / ABSORBED_PER_SECOND);
                    h.processElement2(new StreamRecord<>(status(t, lag)));
                }
            }
            assertThat(seen).as("every slot once").hasSize(SLOTS);
            return maxQueued;
        }
    }

    /** Takes the released requests out so far into {@code seen}; returns how many. */
    private static int drain(
            KeyedTwoInputStreamOperatorTestHarness<
                            String, ParsedRecord, PacingStatus, RegistryInput>
                    h,
            Set<String> seen) {
        var queue = h.getSideOutput(DispatchTags.UID_KEYED);
        int n = 0;
        Object o;
        while (queue != null && (o = queue.poll()) != null) {
            @SuppressWarnings("unchecked")
            UidKeyed u = ((StreamRecord<UidKeyed>) o).getValue();
            assertThat(seen.add(u.request.msgId)).as("released twice: " + u.request.msgId).isTrue();
            n++;
        }
        return n;
    }

    private static ParsedRecord slot(int i) {
        PushRequest p = new PushRequest();
        p.msgId = "slot-" + i;
        p.ts = AT - 1_000;
        p.at = AT;
        p.msgType = "personal";
        p.title = "t";
        p.body = "b";
        p.target = new Target();
        p.target.uids = List.of("u" + i);
        return ParsedRecord.of(p).from("test", p.msgId);
    }

    private static PacingStatus status(long now, long lagMs) {
        PacingStatus s = PacingStatus.of("fcm", 0, 0, 0, now);
        s.watermark = now - lagMs;
        return s;
    }
}
