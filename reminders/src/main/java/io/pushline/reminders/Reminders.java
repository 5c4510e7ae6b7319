package io.pushline.reminders;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.FiredTask;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderEvent;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderMirror;
import io.pushline.schema.reminders.ReminderTags;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The reminders topology, shared by the dispatch job and {@code pushline reminders replay}: events
 * (event time assigned, uids resolved to dense ids) keyed by task through {@link TaskOperator},
 * then one {@link ReminderPacer} for all tasks.
 */
public final class Reminders {
    /** Most ids in one chunk out of the pacer. */
    public static final int CHUNK_SIZE = 5_000;

    private Reminders() {}

    /** What comes out: reminder chunks, refused events, and dead letters. */
    public record Streams(
            DataStream<ReminderChunk> chunks,
            DataStream<ReminderLine> rejected,
            DataStream<DeadLetter> deadLetters,
            DataStream<ReminderMirror> mirror) {}

    /**
     * @param realTime pushes leave when the wall clock reaches their send time (the streaming job);
     *     false: at once (a replay)
     */
    public static Streams build(
            DataStream<ReminderEvent> events,
            ReminderRules rules,
            boolean realTime,
            int maxParallelism) {
        return build(events, rules, realTime, 0, maxParallelism);
    }

    /**
     * As above, the pacer making up to {@code catchUpMs} of its schedule at once when it fell
     * behind (see {@link ReminderPacer}): for a job that meters the sends after the gate.
     */
    public static Streams build(
            DataStream<ReminderEvent> events,
            ReminderRules rules,
            boolean realTime,
            long catchUpMs,
            int maxParallelism) {
        return build(events, rules, realTime, catchUpMs, null, 0, maxParallelism);
    }

    /**
     * As above; with {@code reports} and {@code targetDelayMs} > 0 (real time only) the pacer also
     * follows the vendor pacers' reports, so its pushes leave no faster than the stages before the
     * gate absorb them ({@link AdaptiveReminderPacer}).
     */
    public static Streams build(
            DataStream<ReminderEvent> events,
            ReminderRules rules,
            boolean realTime,
            long catchUpMs,
            DataStream<PacingStatus> reports,
            long targetDelayMs,
            int maxParallelism) {
        SingleOutputStreamOperator<FiredTask> fired =
                events.keyBy(e -> e.taskId)
                        .transform(
                                "Reminder tasks",
                                TypeInformation.of(FiredTask.class),
                                new TaskOperator())
                        .uid("reminder-tasks")
                        .setMaxParallelism(maxParallelism);
        SingleOutputStreamOperator<ReminderChunk> chunks =
                realTime && reports != null && targetDelayMs > 0
                        ? fired.connect(reports)
                                .transform(
                                        "Pace reminders",
                                        TypeInformation.of(ReminderChunk.class),
                                        new AdaptiveReminderPacer(
                                                rules.rate, CHUNK_SIZE, catchUpMs, targetDelayMs))
                        : fired.transform(
                                "Pace reminders",
                                TypeInformation.of(ReminderChunk.class),
                                new ReminderPacer(rules.rate, CHUNK_SIZE, realTime, catchUpMs));
        chunks.uid("reminder-pacer").setParallelism(1).setMaxParallelism(1);
        return new Streams(
                chunks,
                fired.getSideOutput(ReminderTags.REJECTED),
                fired.getSideOutput(DispatchTags.DEAD_LETTERS),
                fired.getSideOutput(ReminderTags.MIRROR));
    }
}
