package io.pushline.reminders;

import io.pushline.schema.SendRecord;
import io.pushline.schema.longconn.SendBytes;
import io.pushline.schema.reminders.ReminderState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Holds the global reminder rate where the sends are written (parallelism 1, chained with the
 * writer of the reminder sends). The pacer releases subscribers at the rate, but several stages lie
 * between it and the vendor topics (ids, uid index, gate) and each stalls now and then on two busy
 * cores: a second that stalls writes little and the next one writes twice the rate.
 *
 * <p>The meter takes the reminder sends as the gate passes them and keeps a buffer of {@code
 * delayMs} worth at the rate. Sends that reach an idle meter wait until it holds that many (or
 * until the first of them has waited twice the delay: a small task); then a run begins and at most
 * {@code rate} subscribers leave in each second of the wall clock, in {@link ReminderPacer#SLICES}
 * slices over its first 800 ms, in arrival order. A stall upstream shorter than the buffer shows
 * only as a smaller buffer. The run goes on while sends keep coming; a meter that had nothing to
 * send for twice the delay is idle again.
 *
 * <p>The rate counts subscribers, as the pacer's schedule does: the sends of one (msgId, uid) in a
 * second count once, so a user with two devices gets both and the meter's queue does not grow
 * behind a pacer that counts users. The queue is operator state (each send in its compact wire
 * form), so a restore neither loses nor repeats a send with an exactly-once writer; a restored
 * meter builds its buffer again before it sends. When its input ends (a bounded run) it sends what
 * it holds at once: Flink fires no more processing-time timers after the end of input.
 */
public class ReminderMeter extends AbstractStreamOperator<SendRecord>
        implements OneInputStreamOperator<SendRecord, SendRecord>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final int rate;
    private final long delayMs;

    private transient ArrayDeque<byte[]> queue;
    private transient ListState<byte[]> queueState;
    private transient Set<String> counted;
    private transient long second;
    private transient long used;
    private transient boolean running;
    private transient long runStart;
    private transient long waitingSince;
    private transient long lastRelease;

    /** The earliest release timer pending; Long.MAX_VALUE: none. */
    private transient long scheduledAt;

    private transient Counter sent;

    /**
     * @param rate subscribers per whole second of the wall clock
     * @param delayMs the buffer, in time at the rate: the longest stall upstream it hides
     */
    public ReminderMeter(int rate, long delayMs) {
        if (rate <= 0 || delayMs < 0) {
            throw new IllegalArgumentException("rate must be positive and delay not negative");
        }
        this.rate = rate;
        this.delayMs = delayMs;
    }

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        queue = new ArrayDeque<>();
        counted = new HashSet<>();
        scheduledAt = Long.MAX_VALUE;
        queueState = ctx.getOperatorStateStore().getListState(ReminderState.meterQueue());
        for (byte[] b : queueState.get()) {
            queue.add(b);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        sent = getMetricGroup().counter("reminderMeterSent");
        getMetricGroup().gauge("reminderMeterQueued", () -> queue.size());
        if (!queue.isEmpty()) {
            waitingSince = now();
            scheduleRelease(waitingSince + maxWait());
        }
    }

    @Override
    public void processElement(StreamRecord<SendRecord> element) {
        long now = now();
        if (running && queue.isEmpty() && now - lastRelease >= maxWait()) {
            running = false;
        }
        if (!running && queue.isEmpty()) {
            waitingSince = now;
        }
        queue.add(SendBytes.of(element.getValue()).wire);
        if (running || startIfReady(now)) {
            scheduleRelease(Math.max(now, runStart));
        } else {
            scheduleRelease(waitingSince + maxWait());
        }
    }

    @Override
    public void endInput() {
        while (!queue.isEmpty()) {
            emit(SendBytes.decode(queue.poll()), now());
        }
    }

    /**
     * Begins a run when the buffer is full or has waited long enough, at the next whole second (at
     * once within a second's first slice). A run begun in the middle of a second would owe the
     * slices gone by and send them in one burst, whose writes then spill into the next second;
     * begun late, its first second would get less than the rate.
     */
    private boolean startIfReady(long now) {
        if (queue.size() < (long) rate * delayMs / 1000 && now - waitingSince < maxWait()) {
            return false;
        }
        running = true;
        long intoSecond = Math.floorMod(now, 1000L);
        runStart = intoSecond < ReminderPacer.SLICE_MS ? now : now - intoSecond + 1000;
        return true;
    }

    private long maxWait() {
        return 2 * delayMs;
    }

    /** Sends what the current second's slices allow by {@code now}. */
    private void release(long now) {
        if (queue.isEmpty()) {
            return;
        }
        if (!running && !startIfReady(now)) {
            scheduleRelease(waitingSince + maxWait());
            return;
        }
        if (now < runStart) {
            scheduleRelease(runStart);
            return;
        }
        long s = Math.floorDiv(now, 1000L);
        if (s != second) {
            second = s;
            used = 0;
            counted.clear();
        }
        long allowed = ReminderPacer.allowedBy(rate, s * 1000, now);
        while (!queue.isEmpty() && used < allowed) {
            SendRecord send = SendBytes.decode(queue.poll());
            if (counted.add(subscriber(send))) {
                used++;
            }
            emit(send, now);
        }
        // the other devices of the subscribers already counted in this second
        while (!queue.isEmpty()) {
            SendRecord next = SendBytes.decode(queue.peek());
            if (!counted.contains(subscriber(next))) {
                break;
            }
            queue.poll();
            emit(next, now);
        }
        if (!queue.isEmpty()) {
            boolean lastSlice = ReminderPacer.slicesBy(s * 1000, now) == ReminderPacer.SLICES;
            scheduleRelease(lastSlice ? (s + 1) * 1000 : now + ReminderPacer.SLICE_MS);
        }
    }

    /** What the rate counts: one task's push to one uid, whatever its devices. */
    private static String subscriber(SendRecord send) {
        return send.msgId + '\u0000' + send.uid;
    }

    private void emit(SendRecord send, long now) {
        output.collect(new StreamRecord<>(send));
        sent.inc();
        lastRelease = now;
    }

    /** Asks for a release at {@code at} unless one comes sooner; a later one may still fire. */
    private void scheduleRelease(long at) {
        long when = Math.max(at, now());
        if (when >= scheduledAt) {
            return;
        }
        scheduledAt = when;
        getProcessingTimeService()
                .registerTimer(
                        when,
                        t -> {
                            if (scheduledAt <= t) {
                                scheduledAt = Long.MAX_VALUE;
                            }
                            release(now());
                        });
    }

    private long now() {
        return getProcessingTimeService().getCurrentProcessingTime();
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        List<byte[]> all = new ArrayList<>(queue);
        queueState.update(all);
    }
}
