package io.pushline.dispatch.pacing;

import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

/** A pacer under a test harness with a processing-time clock the test moves, 1 ms at a time. */
final class PacerHarness implements AutoCloseable {
    /** A send that left, with the harness time it left at. */
    record Out(SendRecord send, long at) {}

    final KeyedTwoInputStreamOperatorTestHarness<String, SendRecord, PacingControl, SendRecord> h;
    final List<Out> sent = new ArrayList<>();
    final List<Decision> expired = new ArrayList<>();
    long now;
    private int seq;

    PacerHarness(PacingConfig config, OperatorSubtaskState restore, long start) throws Exception {
        h =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new Pacer(config, 10, 0.5, 0.05),
                        s -> s.vendor,
                        c -> c.vendor,
                        Types.STRING);
        h.setStateBackend(new EmbeddedRocksDBStateBackend());
        h.setup();
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        now = start;
        h.setProcessingTime(now);
    }

    PacerHarness(Map<String, Double> rates) throws Exception {
        this(new PacingConfig(rates, Map.of(), 3), null, 0);
    }

    void push(String vendor, int level, int n) throws Exception {
        push(vendor, level, n, null);
    }

    void push(String vendor, int level, int n, Long deadline) throws Exception {
        for (int i = 0; i < n; i++) {
            SendRecord s = new SendRecord();
            s.msgId = "m" + level;
            s.msgType = "t";
            s.level = level;
            s.deviceId = "d" + seq++;
            s.vendor = vendor;
            s.ts = now;
            s.deadline = deadline;
            h.processElement1(new StreamRecord<>(s, now));
        }
        collect();
    }

    void control(PacingControl c) throws Exception {
        h.processElement2(new StreamRecord<>(c));
        collect();
    }

    /** Moves the clock to {@code until}, one millisecond at a time (every timer fires on time). */
    void runUntil(long until) throws Exception {
        while (now < until) {
            now++;
            h.setProcessingTime(now);
            collect();
        }
    }

    /**
     * Moves the clock to {@code until} in jumps of {@code steps} ms, taken in turn: a timer fires
     * only at the end of a jump, so ticks come late, as on a busy machine.
     */
    void runUntilInJumps(long until, long... steps) throws Exception {
        for (int i = 0; now < until; i = (i + 1) % steps.length) {
            now = Math.min(until, now + steps[i]);
            h.setProcessingTime(now);
            collect();
        }
    }

    OperatorSubtaskState snapshot() throws Exception {
        return h.snapshot(1, now);
    }

    long sentBetween(String vendor, long from, long to) {
        return sent.stream()
                .filter(o -> o.at >= from && o.at < to && o.send.vendor.equals(vendor))
                .count();
    }

    long sentAtLevel(int level, long from, long to) {
        return sent.stream()
                .filter(o -> o.at >= from && o.at < to && o.send.level == level)
                .count();
    }

    private void collect() {
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord) {
                sent.add(new Out((SendRecord) ((StreamRecord<?>) o).getValue(), now));
            }
        }
        h.getOutput().clear();
        var side = h.getSideOutput(DispatchTags.DECISIONS);
        if (side != null) {
            for (StreamRecord<Decision> r : side) {
                expired.add(r.getValue());
            }
            side.clear();
        }
    }

    @Override
    public void close() throws Exception {
        h.close();
    }
}
