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
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Holds the global reminder rate where the sends are written (parallelism 1, chained with the
 * writer of the reminder sends). The pacer releases subscribers at the rate, but five stages lie
 * between it and the vendor topics (ids, uid index, gate) and each stalls now and then on two busy
 * cores: a second that stalls writes little and the next one writes twice the rate. The meter takes
 * the reminder sends as the gate passes them and keeps a buffer of {@code delayMs} worth: when
 * sends arrive to an idle meter it starts at the first whole second at least {@code delayMs} later,
 * and from then on releases at most {@code rate} subscribers in each second of the wall clock, in
 * {@link ReminderPacer#SLICES} slices over its first 800 ms, in arrival order. A stall upstream
 * shorter than the buffer then shows only as a smaller buffer.
 *
 * <p>The rate counts subscribers, as the pacer's schedule does: the sends of one (msgId, uid) in a
 * second count once, so a user with two devices gets both and the meter's queue does not grow
 * behind a pacer that counts users. The queue is operator state (each send in its compact wire
 * form), so a restore neither loses nor repeats a send with an exactly-once writer.
 */
public class ReminderMeter extends AbstractStreamOperator<SendRecord>
        implements OneInputStreamOperator<SendRecord, SendRecord> {
    private static final long serialVersionUID = 1L;

    private final int rate;
    private final long delayMs;

    private transient ArrayDeque<byte[]> queue;
    private transient ListState<byte[]> queueState;
    private transient Set<String> counted;
    private transient long second;
    private transient long used;
    private transient long runStart = Long.MAX_VALUE;
    private transient long lastRelease;
    private transient boolean releaseScheduled;
    private transient Counter sent;

    /**
     * @param rate subscribers per whole second of the wall clock
     * @param delayMs how far behind the pacer the meter runs: the longest stall upstream it hides
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
        lastRelease = Long.MIN_VALUE / 2;
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
            // restored: build the buffer up again before sending on
            startRun(now());
        }
    }

    @Override
    public void processElement(StreamRecord<SendRecord> element) {
        long now = now();
        if (queue.isEmpty() && now - lastRelease > 1000) {
            startRun(now);
        }
        queue.add(SendBytes.of(element.getValue()).wire);
        scheduleRelease(Math.max(now, runStart));
    }

    private void startRun(long now) {
        runStart = ceilSecond(now + delayMs);
        scheduleRelease(runStart);
    }

    /** Sends what the current second's slices allow by {@code now}. */
    private void release(long now) {
        if (queue.isEmpty()) {
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
        long slice = Math.min(ReminderPacer.SLICES, (now - s * 1000) / ReminderPacer.SLICE_MS + 1);
        long allowed = (rate * slice + ReminderPacer.SLICES - 1) / ReminderPacer.SLICES;
        while (!queue.isEmpty() && used < allowed) {
            SendRecord send = SendBytes.decode(queue.poll());
            if (counted.add(send.msgId + '\u0000' + send.uid)) {
                used++;
            }
            output.collect(new StreamRecord<>(send));
            sent.inc();
            lastRelease = now;
        }
        // the other devices of the subscribers already counted in this second
        while (!queue.isEmpty()) {
            SendRecord next = SendBytes.decode(queue.peek());
            if (!counted.contains(next.msgId + '\u0000' + next.uid)) {
                break;
            }
            queue.poll();
            output.collect(new StreamRecord<>(next));
            sent.inc();
        }
        if (!queue.isEmpty()) {
            scheduleRelease(
                    slice < ReminderPacer.SLICES ? now + ReminderPacer.SLICE_MS : (s + 1) * 1000);
        }
    }

    private void scheduleRelease(long at) {
        if (releaseScheduled) {
            return;
        }
        releaseScheduled = true;
        getProcessingTimeService()
                .registerTimer(
                        Math.max(at, now()),
                        t -> {
                            releaseScheduled = false;
                            release(now());
                        });
    }

    private long now() {
        return getProcessingTimeService().getCurrentProcessingTime();
    }

    private static long ceilSecond(long t) {
        return Math.floorDiv(t + 999, 1000L) * 1000L;
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        List<byte[]> all = new ArrayList<>(queue);
        queueState.update(all);
    }
}
