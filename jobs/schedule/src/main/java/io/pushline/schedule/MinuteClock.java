package io.pushline.schedule;

import io.pushline.common.PendingSplits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Emits epoch minutes in order, each {@code lead} before it begins by the wall clock (or all at
 * once when not following the clock: backfills, tests), from {@code from} up to {@code until}
 * (exclusive; unbounded when {@link Long#MAX_VALUE}), every {@code step}-th minute: each value
 * stands for the minutes {@code [value, value + step)}. The next minute to emit is the checkpointed
 * state, so after a restart the minutes since the last checkpoint are emitted again (and minutes
 * missed while the job was down are emitted at once): with an exactly-once sink downstream, every
 * minute is handled once. Run it with parallelism 1.
 */
public final class MinuteClock implements Source<Long, MinuteClock.Split, List<MinuteClock.Split>> {
    private static final long serialVersionUID = 1L;

    private final long from;
    private final long until;
    private final long leadMs;
    private final boolean followClock;
    private final int step;

    public MinuteClock(
            long fromMinute, long untilMinute, long leadMs, boolean followClock, int step) {
        this.from = fromMinute;
        this.until = untilMinute;
        this.leadMs = leadMs;
        this.followClock = followClock;
        this.step = step;
    }

    /** Minutes per emitted value. */
    public int step() {
        return step;
    }

    /** The first minute not emitted (exclusive end); {@link Long#MAX_VALUE}: none. */
    public long until() {
        return until;
    }

    @Override
    public Boundedness getBoundedness() {
        return until == Long.MAX_VALUE ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<Split, List<Split>> createEnumerator(
            SplitEnumeratorContext<Split> context) {
        List<Split> all = new ArrayList<>();
        all.add(new Split(from));
        return new PendingSplits<>(context, all);
    }

    @Override
    public SplitEnumerator<Split, List<Split>> restoreEnumerator(
            SplitEnumeratorContext<Split> context, List<Split> pending) {
        return new PendingSplits<>(context, pending);
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new SplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<List<Split>> getEnumeratorCheckpointSerializer() {
        return new PendingSerializer();
    }

    @Override
    public SourceReader<Long, Split> createReader(SourceReaderContext context) {
        return new Reader(context, until, leadMs, followClock, step);
    }

    /** The one split: the next minute to emit. */
    public static final class Split implements SourceSplit {
        final long next;

        public Split(long next) {
            this.next = next;
        }

        @Override
        public String splitId() {
            return "minutes";
        }
    }

    private static final class Reader implements SourceReader<Long, Split> {
        private final SourceReaderContext context;
        private final long until;
        private final long leadMs;
        private final boolean followClock;
        private final int step;
        private final ScheduledExecutorService timer =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "minute-clock");
                            t.setDaemon(true);
                            return t;
                        });
        private Long next;
        private boolean noMoreSplits;
        private CompletableFuture<Void> available = new CompletableFuture<>();

        Reader(
                SourceReaderContext context,
                long until,
                long leadMs,
                boolean followClock,
                int step) {
            this.context = context;
            this.until = until;
            this.leadMs = leadMs;
            this.followClock = followClock;
            this.step = step;
        }

        @Override
        public void start() {
            context.sendSplitRequest();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Long> output) {
            if (next == null) {
                return noMoreSplits ? InputStatus.END_OF_INPUT : waitFor(-1);
            }
            if (next >= until) {
                return InputStatus.END_OF_INPUT;
            }
            long wait = followClock ? next * 60_000L - leadMs - System.currentTimeMillis() : 0;
            if (wait > 0) {
                return waitFor(Math.min(wait, 1_000));
            }
            output.collect(next, next * 60_000L);
            next += step;
            return InputStatus.MORE_AVAILABLE;
        }

        private InputStatus waitFor(long ms) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            available = f;
            if (ms >= 0) {
                timer.schedule(() -> f.complete(null), ms, TimeUnit.MILLISECONDS);
            }
            return InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            return next == null ? List.of() : List.of(new Split(next));
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<Split> splits) {
            next = splits.get(0).next;
            available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            available.complete(null);
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    private static final class SplitSerializer implements SimpleVersionedSerializer<Split> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Split split) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(8);
            new DataOutputStream(bytes).writeLong(split.next);
            return bytes.toByteArray();
        }

        @Override
        public Split deserialize(int version, byte[] serialized) throws IOException {
            return new Split(new DataInputStream(new ByteArrayInputStream(serialized)).readLong());
        }
    }

    private static final class PendingSerializer implements SimpleVersionedSerializer<List<Split>> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(List<Split> pending) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(pending.size());
            for (Split s : pending) {
                out.writeLong(s.next);
            }
            out.flush();
            return bytes.toByteArray();
        }

        @Override
        public List<Split> deserialize(int version, byte[] serialized) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            int n = in.readInt();
            List<Split> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(new Split(in.readLong()));
            }
            return out;
        }
    }
}
