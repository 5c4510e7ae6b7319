package io.pushline.schema.reminders;

import io.pushline.schema.StateTtl;
import java.time.Duration;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * State of the reminders operators. Names are part of savepoint compatibility: never rename.
 *
 * <p>No TTL on a task's state on purpose. An open task must live until it fires, however far ahead
 * that is and however quiet it stays; when it fires or is cancelled its bitmaps are cleared by that
 * event, and only the small task record stays, so that a late subscribe is refused as {@code
 * closed} and not as {@code unknown_task}.
 */
public final class ReminderState {
    private ReminderState() {}

    /**
     * Subscriber ids, keyed by uid: the uid's id in the uid dictionary, a cache of it (the
     * dictionary never changes an id, so dropping it only costs a lookup). Kept a month after it
     * was last written (processing time).
     */
    public static ValueStateDescriptor<Integer> uidId() {
        ValueStateDescriptor<Integer> d = new ValueStateDescriptor<>("reminder-uid-id", Types.INT);
        d.enableTimeToLive(StateTtl.garbageOnly(Duration.ofDays(30), 10_000));
        return d;
    }

    /** Keyed by taskId: the task. */
    public static ValueStateDescriptor<ReminderTask> task() {
        return new ValueStateDescriptor<>("reminder-task", TypeInformation.of(ReminderTask.class));
    }

    /** Keyed by taskId: its subscribers, run-optimized Roaring bytes of dense uid ids. */
    public static ValueStateDescriptor<byte[]> subscribers() {
        return new ValueStateDescriptor<>(
                "reminder-subscribers", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    }

    /** Keyed by taskId: the subscribers whose app pulled it, as above. */
    public static ValueStateDescriptor<byte[]> pulled() {
        return new ValueStateDescriptor<>(
                "reminder-pulled", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    }

    /** Pacer (operator state): fired tasks not yet scheduled or not yet sent to the end. */
    public static ListStateDescriptor<ScheduledTask> pacerTasks() {
        return new ListStateDescriptor<>(
                "reminder-pacer-tasks", TypeInformation.of(ScheduledTask.class));
    }

    /**
     * Reminder meter (operator state): the sends it holds, in arrival order, each in the compact
     * wire form of {@code SendBytes}: a field added to the send gets a flag bit that bytes written
     * before never set, so the queue of a savepoint still reads.
     */
    public static ListStateDescriptor<byte[]> meterQueue() {
        return new ListStateDescriptor<>(
                "reminder-meter-queue", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    }

    /** Pacer (operator state): the greedy schedule's cursor, second and pushes in it. */
    public static ListStateDescriptor<Long> pacerCursor() {
        return new ListStateDescriptor<>("reminder-pacer-cursor", Types.LONG);
    }
}
