package io.pushline.bench.jmh;

import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.IdSet;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.roaringbitmap.RoaringBitmap;

/**
 * An audience expression over four segments of a 10,000,000-id universe, parsed and evaluated each
 * time (as a campaign does), next to the same set operations written by hand on the bitmaps.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class AudienceEvaluatorBench {
    private static final int UNIVERSE = 10_000_000;
    private static final String EXPRESSION = "(sports OR music) AND beijing AND NOT churned";

    private AudienceEvaluator evaluator;
    private RoaringBitmap sports;
    private RoaringBitmap music;
    private RoaringBitmap beijing;
    private RoaringBitmap churned;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        sports = sample(random, 0.30);
        music = sample(random, 0.20);
        beijing = sample(random, 0.10);
        churned = sample(random, 0.05);
        Map<String, IdSet> segments = new HashMap<>();
        segments.put("sports", IdSet.wrap(sports));
        segments.put("music", IdSet.wrap(music));
        segments.put("beijing", IdSet.wrap(beijing));
        segments.put("churned", IdSet.wrap(churned));
        evaluator = new AudienceEvaluator(segments, IdSet.range(UNIVERSE));
    }

    private static RoaringBitmap sample(SplittableRandom random, double share) {
        RoaringBitmap b = new RoaringBitmap();
        for (int id = 0; id < UNIVERSE; id++) {
            if (random.nextDouble() < share) {
                b.add(id);
            }
        }
        b.runOptimize();
        return b;
    }

    @Benchmark
    public long evaluator() {
        return evaluator.evaluate(EXPRESSION).cardinality();
    }

    @Benchmark
    public long handWritten() {
        RoaringBitmap either = RoaringBitmap.or(sports, music);
        either.and(beijing);
        either.andNot(churned);
        return either.getLongCardinality();
    }
}
