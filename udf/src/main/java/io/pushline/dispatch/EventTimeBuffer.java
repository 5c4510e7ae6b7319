package io.pushline.dispatch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.streaming.api.TimerService;

/**
 * Holds a key's records until the watermark passes their event time, then hands them out in (ts,
 * seq) order. This is what makes every dispatch stage decide as if the input were one trace sorted
 * by time: a bind at t is seen by a push at t' > t, however the two topics interleave.
 *
 * <p>A record that arrives behind the watermark (late) is still processed, at the next watermark.
 */
public final class EventTimeBuffer<T> {
    private final MapState<Long, List<T>> state;
    private final Comparator<T> bySeq;

    public EventTimeBuffer(MapState<Long, List<T>> state, Comparator<T> bySeq) {
        this.state = state;
        this.bySeq = bySeq;
    }

    public void add(T record, long ts, TimerService timers) throws Exception {
        List<T> waiting = state.get(ts);
        if (waiting == null) {
            waiting = new ArrayList<>(1);
            timers.registerEventTimeTimer(ts);
        }
        waiting.add(record);
        state.put(ts, waiting);
    }

    /** Removes and returns what waited for {@code ts}, in seq order. */
    public List<T> release(long ts) throws Exception {
        List<T> waiting = state.get(ts);
        if (waiting == null) {
            return List.of();
        }
        state.remove(ts);
        waiting.sort(bySeq);
        return waiting;
    }
}
