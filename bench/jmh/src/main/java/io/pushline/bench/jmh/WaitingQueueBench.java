package io.pushline.bench.jmh;

import io.pushline.udf.WaitingQueue;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The event-time ordering of the keyed stages (records wait until the watermark passes them), per
 * record, against a plain {@link PriorityQueue}: 4,096 records added, then taken out in (ts, seq)
 * order. {@code waitingQueue}: the gate's input, two channels, each in time order, interleaved.
 * {@code ahead}: the ack tracker's, blocks of 64 sends 4 ms apart, each block followed by what
 * follows its sends: an ack 300 ms later, or for one in twenty a report 5 to 20 s later (records
 * that run ahead of the rest).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WaitingQueueBench {
    private static final int N = 4_096;

    private final long[] ts = new long[N];
    private final Long[] records = new Long[N];
    private final long[] aheadTs = new long[N];

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(3);
        long a = 0;
        long b = 0;
        for (int i = 0; i < N; i++) {
            boolean first = random.nextBoolean();
            long t = first ? (a += random.nextInt(5)) : (b += random.nextInt(5));
            ts[i] = t;
            records[i] = t;
        }
        // blocks of 64 sends 4 ms apart, then what follows them, as a reader hands out fetches
        int i = 0;
        long t = 0;
        while (i < N) {
            int block = Math.min(64, (N - i) / 2);
            long first = t;
            for (int j = 0; j < block; j++) {
                aheadTs[i++] = t += 4;
            }
            for (int j = 0; j < block && i < N; j++) {
                long sent = first + 4 * (j + 1);
                aheadTs[i++] =
                        random.nextInt(20) == 0
                                ? sent + 5_000 * (1 + random.nextInt(4))
                                : sent + 300;
            }
            if (block == 0) {
                aheadTs[i++] = t;
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long aheadWaitingQueue() {
        return throughWaitingQueue(aheadTs);
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long aheadPriorityQueue() {
        return throughPriorityQueue(aheadTs);
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long waitingQueue() {
        return throughWaitingQueue(ts);
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long priorityQueue() {
        return throughPriorityQueue(ts);
    }

    private long throughWaitingQueue(long[] times) {
        WaitingQueue<Long> q = new WaitingQueue<>();
        for (int i = 0; i < N; i++) {
            q.add(records[i], times[i], i, 0);
        }
        long sum = 0;
        for (Long r; (r = q.poll()) != null; ) {
            sum += r;
        }
        return sum;
    }

    private static long throughPriorityQueue(long[] times) {
        PriorityQueue<long[]> q =
                new PriorityQueue<>(
                        (x, y) ->
                                x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        for (int i = 0; i < N; i++) {
            q.add(new long[] {times[i], i});
        }
        long sum = 0;
        for (long[] r; (r = q.poll()) != null; ) {
            sum += r[0];
        }
        return sum;
    }
}
