package io.pushline.longconn;

import io.pushline.schema.longconn.DeviceLink;
import io.pushline.schema.longconn.DeviceLinkSerializer;
import io.pushline.schema.longconn.TrackedSend;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The ack tracker's device state, held on the heap for a short event-time window after it is read
 * ({@link #HOLD_MS}) and then written back to RocksDB once, with the retry timers its tracked
 * messages need. Most messages are acked within a second of their send, so a send and its ack meet
 * on the heap: the device's state is read once and written once (not at all when nothing is left to
 * keep), and the message's first retry never becomes a RocksDB timer that its ack deletes again.
 * Without the window a send and its ack cost two reads, two writes and a timer's write and delete.
 *
 * <p>Timers follow the state: a device's timers are registered for the due times of its tracked
 * messages when its state is written. A message that came due while its device waits on the heap
 * would miss its retry, so a device leaves the heap before the timers advance past the end of its
 * window ({@link #flushUpTo}), and every due time a record sets is at least the probe delay after
 * it, which the window does not exceed; devices leave in the order they came. A due time that could
 * come before the window ends gets its timer at once: one a timer's retry set (the timers run on to
 * the watermark without a stop where the window ends), one of a record behind the watermark, one
 * under a probe delay shorter than the window.
 *
 * <p>Callers get a copy and put it back when they changed it, so a record that fails half way
 * leaves nothing half changed. Every state is written before each checkpoint, but not the timers of
 * devices still on the heap (the checkpoint notes those devices instead, and a restore registers
 * their timers), and the oldest devices are written once {@link #MAX_DEVICES} wait, so the heap
 * stays bounded however fast records come.
 */
final class DeviceLinks {
    /** Devices a subtask holds on the heap at most. */
    static final int MAX_DEVICES = 100_000;

    /** How long, in event time, a device's state stays on the heap after it is read. */
    static final long HOLD_MS = 2_000;

    private static final long[] NONE = new long[0];

    private final ValueState<DeviceLink> state;
    private final KeyContext keys;
    private final InternalTimerService<VoidNamespace> timers;
    private final int maxDevices;
    private final long hold;
    private final LinkedHashMap<String, Held> held = new LinkedHashMap<>();
    private long lastSince = Long.MIN_VALUE;

    private static final class Held {
        final long deadline;
        DeviceLink link;
        boolean stored;
        boolean changed;

        /** Due times with a registered timer, sorted, distinct. */
        long[] timers;

        Held(long deadline) {
            this.deadline = deadline;
        }
    }

    /**
     * @param hold the window in event time; at most the probe delay, or most timers are registered
     *     at once
     */
    DeviceLinks(
            ValueState<DeviceLink> state,
            KeyContext keys,
            InternalTimerService<VoidNamespace> timers,
            int maxDevices,
            long hold) {
        this.state = state;
        this.keys = keys;
        this.timers = timers;
        this.maxDevices = maxDevices;
        this.hold = hold;
    }

    /**
     * The device's state, to change and {@link #put}, read at event time {@code ts}; the current
     * key must be {@code deviceId}.
     */
    DeviceLink get(String deviceId, long ts) throws Exception {
        Held h = held.get(deviceId);
        if (h == null) {
            // entries leave in arrival order, so their windows must not start earlier than those
            // before them (a record behind the watermark)
            lastSince = Math.max(lastSince, ts);
            h = new Held(saturatedAdd(lastSince, hold));
            h.link = state.value();
            h.stored = h.link != null;
            h.timers = dues(h.link);
            held.put(deviceId, h);
        }
        return h.link == null ? new DeviceLink() : DeviceLinkSerializer.INSTANCE.copy(h.link);
    }

    /** The device's timer at {@code t} fired (so it is registered no more); after {@link #get}. */
    void fired(String deviceId, long t) {
        Held h = held.get(deviceId);
        int i = Arrays.binarySearch(h.timers, t);
        if (i >= 0) {
            long[] left = new long[h.timers.length - 1];
            System.arraycopy(h.timers, 0, left, 0, i);
            System.arraycopy(h.timers, i + 1, left, i, left.length - i);
            h.timers = left;
        }
    }

    /**
     * The device's state is now {@code link}, which {@link #get} returned for it; the current key
     * must be {@code deviceId}. A due time the window could pass gets its timer at once.
     */
    void put(String deviceId, DeviceLink link) {
        Held h = held.get(deviceId);
        h.link = link.empty() ? null : link;
        h.changed = true;
        if (link.tracked != null) {
            for (TrackedSend t : link.tracked) {
                if (t.due() < h.deadline) {
                    registerTimers(h);
                    return;
                }
            }
        }
    }

    /**
     * Registers the timers the device's state needs now, not when it is written: for a change made
     * by a timer, as the timers advance past the end of the window before it could be written. The
     * current key must be {@code deviceId}.
     */
    void registerTimers(String deviceId) {
        registerTimers(held.get(deviceId));
    }

    private void registerTimers(Held h) {
        long[] needed = dues(h.link);
        long[] registered = h.timers;
        for (long due : needed) {
            if (Arrays.binarySearch(registered, due) < 0) {
                timers.registerEventTimeTimer(VoidNamespace.INSTANCE, due);
                registered = insert(registered, due);
            }
        }
        h.timers = registered;
    }

    /** Whether the oldest devices should be written before the next record. */
    boolean full() {
        return held.size() >= maxDevices;
    }

    /** Writes the oldest tenth of the devices held; changes the current key. */
    void flushOldest() throws Exception {
        int n = Math.max(1, maxDevices / 10);
        Iterator<Map.Entry<String, Held>> it = held.entrySet().iterator();
        while (n-- > 0 && it.hasNext()) {
            Map.Entry<String, Held> e = it.next();
            write(e.getKey(), e.getValue(), true);
            it.remove();
        }
    }

    /**
     * Writes the devices whose window ends at or before {@code watermark}: what they hold may come
     * due after it. Call before the timers advance to {@code watermark}; changes the current key.
     */
    void flushUpTo(long watermark) throws Exception {
        Iterator<Map.Entry<String, Held>> it = held.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Held> e = it.next();
            if (e.getValue().deadline > watermark) {
                return;
            }
            write(e.getKey(), e.getValue(), true);
            it.remove();
        }
    }

    /**
     * Writes every device held that changed (before a checkpoint), and keeps them: a send and its
     * ack on either side of a checkpoint still meet on the heap. Registers no timers: a timer
     * written now would mostly be deleted again by the ack that follows within the window (with
     * timers in RocksDB, a write and a delete each). Returns the devices whose tracked messages
     * have no timer yet, for the checkpoint to note: a restore registers theirs ({@link
     * #restoreTimers}), and the end of the window registers them otherwise. Changes the current
     * key.
     */
    List<String> flush() throws Exception {
        List<String> untimed = new ArrayList<>();
        for (Map.Entry<String, Held> e : held.entrySet()) {
            write(e.getKey(), e.getValue(), false);
            if (missesTimers(e.getValue())) {
                untimed.add(e.getKey());
            }
        }
        return untimed;
    }

    /**
     * Registers the timers of a device whose state a checkpoint wrote without them ({@link
     * #flush}); on restore, before any record. Changes the current key.
     */
    void restoreTimers(String deviceId) throws Exception {
        keys.setCurrentKey(deviceId);
        for (long due : dues(state.value())) {
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, due);
        }
    }

    int size() {
        return held.size();
    }

    /**
     * The device's state as it should be in RocksDB, without the timers no longer needed; with
     * {@code withTimers}, also the timers it needs.
     */
    private void write(String deviceId, Held h, boolean withTimers) throws Exception {
        boolean register = withTimers && missesTimers(h);
        if (!h.changed && !register) {
            return;
        }
        keys.setCurrentKey(deviceId);
        if (h.changed) {
            if (h.link != null) {
                state.update(h.link);
            } else if (h.stored) {
                state.clear();
            }
            h.stored = h.link != null;
            h.changed = false;
        }
        if (register) {
            registerTimers(h);
        }
        long[] needed = dues(h.link);
        long[] kept = NONE;
        for (long due : h.timers) {
            if (Arrays.binarySearch(needed, due) < 0) {
                timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, due);
            } else {
                kept = insert(kept, due);
            }
        }
        h.timers = kept;
    }

    private static boolean missesTimers(Held h) {
        for (long due : dues(h.link)) {
            if (Arrays.binarySearch(h.timers, due) < 0) {
                return true;
            }
        }
        return false;
    }

    private static long[] insert(long[] sorted, long v) {
        int i = -Arrays.binarySearch(sorted, v) - 1;
        long[] out = new long[sorted.length + 1];
        System.arraycopy(sorted, 0, out, 0, i);
        out[i] = v;
        System.arraycopy(sorted, i, out, i + 1, sorted.length - i);
        return out;
    }

    private static long[] dues(DeviceLink link) {
        if (link == null || link.tracked == null) {
            return NONE;
        }
        long[] due = new long[link.tracked.length];
        for (int i = 0; i < due.length; i++) {
            due[i] = link.tracked[i].due();
        }
        Arrays.sort(due);
        int n = 0;
        for (int i = 0; i < due.length; i++) {
            if (i == 0 || due[i] != due[n - 1]) {
                due[n++] = due[i];
            }
        }
        return n == due.length ? due : Arrays.copyOf(due, n);
    }

    private static long saturatedAdd(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : s;
    }
}
