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
 * The gate's event-time ordering (records wait until the watermark passes them): 4,096 records from
 * two input channels, each in time order, interleaved, added and then taken out in (ts, seq) order;
 * against a plain {@link PriorityQueue}. Per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WaitingQueueBench {
    private static final int N = 4_096;

    private final long[] ts = new long[N];
    private final Long[] records = new Long[N];

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
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long waitingQueue() {
        WaitingQueue<Long> q = new WaitingQueue<>();
        for (int i = 0; i < N; i++) {
            q.add(records[i], ts[i], i, 0);
        }
        long sum = 0;
        for (Long r; (r = q.poll()) != null; ) {
            sum += r;
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long priorityQueue() {
        PriorityQueue<long[]> q =
                new PriorityQueue<>(
                        (x, y) ->
                                x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        for (int i = 0; i < N; i++) {
            q.add(new long[] {ts[i], i});
        }
        long sum = 0;
        for (long[] r; (r = q.poll()) != null; ) {
            sum += r[0];
        }
        return sum;
    }
}
