package io.pushline.bench;

import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.client.Connection;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench audience [--universe N] [--runs R] [--campaign N]}: five random segments
 * over the universe at densities 50/20/10/5/1%, the expression {@code ((s0 AND s1) OR s2) AND NOT
 * s3 OR s4} through the evaluator and as a hand-written RoaringBitmap chain in the same JVM (median
 * of R runs each); ids streamed out in expansion chunks per second; a 10M-member segment written to
 * and read from the embedded HBase store; and, unless {@code --campaign 0}, a campaign of N devices
 * through the dispatch job (see {@link CampaignBench}).
 */
@Command(
        name = "audience",
        mixinStandardHelpOptions = true,
        description = "The evaluator vs hand-written bitmaps, the store, a campaign.")
final class AudienceBench extends Bench {
    static final String EXPRESSION = "((s0 AND s1) OR s2) AND NOT s3 OR s4";
    static final double[] DENSITIES = {0.5, 0.2, 0.1, 0.05, 0.01};

    @Option(
            names = "--universe",
            paramLabel = "N",
            description = "Uids in the universe (default ${DEFAULT-VALUE}).")
    int universe = 100_000_000;

    @Option(
            names = "--runs",
            paramLabel = "R",
            description = "Timed evaluations per expression (default ${DEFAULT-VALUE}).")
    int runs = 21;

    @Option(
            names = "--campaign",
            paramLabel = "DEVICES",
            description = "Devices of the campaign phase (default ${DEFAULT-VALUE}).")
    int campaign = 1_000_000;

    @Override
    public Integer call() throws Exception {
        System.out.printf(
                "Audience bench: %,d-id universe, %s, %d runs each (median), 1 thread%n",
                universe, EXPRESSION, runs);
        long start = System.nanoTime();
        RoaringBitmap[] s = new RoaringBitmap[DENSITIES.length];
        Map<String, IdSet> segments = new HashMap<>();
        for (int i = 0; i < s.length; i++) {
            s[i] = random(universe, DENSITIES[i], 42 + i);
            s[i].runOptimize();
            segments.put("s" + i, IdSet.wrap(s[i]));
            System.out.printf(
                    "  s%d: %,d ids (%.0f%%), %,d bytes%n",
                    i, s[i].getLongCardinality(), DENSITIES[i] * 100, s[i].serializedSizeInBytes());
        }
        System.out.printf("  generated in %.1f s%n", (System.nanoTime() - start) / 1e9);

        AudienceEvaluator evaluator = new AudienceEvaluator(segments, IdSet.range(universe));
        long[] ours = new long[runs];
        long[] hand = new long[runs];
        long size = 0;
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            IdSet result = evaluator.evaluate(EXPRESSION);
            long t1 = System.nanoTime();
            RoaringBitmap byHand =
                    RoaringBitmap.or(
                            RoaringBitmap.andNot(
                                    RoaringBitmap.or(RoaringBitmap.and(s[0], s[1]), s[2]), s[3]),
                            s[4]);
            long t2 = System.nanoTime();
            ours[r] = t1 - t0;
            hand[r] = t2 - t1;
            if (!result.unwrap().equals(byHand)) {
                throw new IllegalStateException("the evaluator and the hand-written chain differ");
            }
            size = result.cardinality();
        }
        BenchResults results = results();
        for (int r = 0; r < runs; r++) {
            results.round(
                    BenchResults.figures(
                            "evaluatorMs",
                            ours[r] / 1e6,
                            "handwrittenMs",
                            hand[r] / 1e6,
                            "evaluatorHandwrittenRatio",
                            (double) ours[r] / hand[r]));
        }
        double oursMs = median(ours) / 1e6;
        double handMs = median(hand) / 1e6;
        System.out.printf("Result: %,d ids (same in both)%n", size);
        System.out.printf("evaluator    %8.2f ms%n", oursMs);
        System.out.printf("handwritten  %8.2f ms%n", handMs);

        IdSet result = evaluator.evaluate(EXPRESSION);
        long[] stream = new long[Math.max(3, runs / 4)];
        long streamed = 0;
        for (int r = 0; r < stream.length; r++) {
            long t0 = System.nanoTime();
            streamed = 0;
            long from = 0;
            for (int[] ids = result.chunk(from, 5_000);
                    ids.length > 0;
                    ids = result.chunk(from, 5_000)) {
                streamed += ids.length;
                from = (ids[ids.length - 1] & 0xFFFFFFFFL) + 1;
            }
            stream[r] = System.nanoTime() - t0;
        }
        System.out.printf(
                "Streamed out in chunks of 5,000: %,d ids in %.1f ms = %,.0f ids/s (1 core)%n",
                streamed, median(stream) / 1e6, streamed / (median(stream) / 1e9));
        results.put("universe", universe);
        results.put("resultIds", size);
        results.put("streamedIdsPerSecond", streamed / (median(stream) / 1e9));

        Path dir = LocalStack.defaultDir().resolve("bench-audience");
        LocalStack.deleteRecursively(dir);
        try (LocalStack stack = LocalStack.start(dir, LocalStack.DEFAULT_START_TIMEOUT)) {
            storeRoundTrip(stack, s);
            if (campaign > 0) {
                CampaignBench.Result c = CampaignBench.run(stack, campaign);
                results.put("campaignDevices", campaign);
                results.put("campaignBindsPerSecond", c.bindsPerSecond());
                results.put("campaignDevicesPerSecond", c.devicesPerSecond());
            }
        } finally {
            LocalStack.deleteRecursively(dir);
        }
        // the ratio of the medians, as always printed; the file also has each run's
        results.put("evaluatorMsMedian", oursMs);
        results.put("handwrittenMsMedian", handMs);
        results.write();
        // Each round runs both, one after the other: the ratio of a round compares like with
        // like, and its median over the rounds with the spread says how much the figure moves.
        System.out.printf(
                "evaluator/handwritten ratio %s (median of %d interleaved rounds, min-max)%n",
                results.medianAndSpread("evaluatorHandwrittenRatio", "%.2f"), runs);
        return 0;
    }

    /** Writes and reads a 10M-member segment through the embedded HBase store. */
    private static void storeRoundTrip(LocalStack stack, RoaringBitmap[] s) throws Exception {
        RoaringBitmapWriter<RoaringBitmap> w = RoaringBitmapWriter.writer().get();
        int need = 10_000_000;
        for (IntIterator it = s[2].getIntIterator(); it.hasNext() && need > 0; need--) {
            w.add(it.next());
        }
        IdSet segment = IdSet.wrap(w.get());
        try (Connection c = stack.hbase().newConnection()) {
            HBaseTables.ensure(c, "bench");
            try (SegmentStore store = new SegmentStore(c, "bench")) {
                long[] write = new long[3];
                long[] read = new long[3];
                byte[] bytes = null;
                for (int r = 0; r < 3; r++) {
                    long t0 = System.nanoTime();
                    bytes = segment.toBytes();
                    store.write("ten-million", bytes, segment.cardinality(), "bench");
                    long t1 = System.nanoTime();
                    IdSet back = IdSet.fromBytes(store.read("ten-million"));
                    long t2 = System.nanoTime();
                    if (!back.equals(segment)) {
                        throw new IllegalStateException("the store returned another segment");
                    }
                    write[r] = t1 - t0;
                    read[r] = t2 - t1;
                }
                System.out.printf(
                        "Store: %,d-member segment (%,d bytes) written in %.0f ms, read and"
                                + " validated in %.0f ms (median of 3, embedded HBase)%n",
                        segment.cardinality(),
                        bytes.length,
                        median(write) / 1e6,
                        median(read) / 1e6);
            }
        }
    }

    /** Ids below {@code universe}, each present with probability {@code density}. */
    static RoaringBitmap random(int universe, double density, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        RoaringBitmapWriter<RoaringBitmap> w = RoaringBitmapWriter.writer().get();
        double log = Math.log(1 - density);
        // Geometric gaps: one draw per member instead of one per id.
        for (long id = (long) Math.floor(Math.log(1 - rnd.nextDouble()) / log);
                id < universe;
                id += 1 + (long) Math.floor(Math.log(1 - rnd.nextDouble()) / log)) {
            w.add((int) id);
        }
        return w.get();
    }

    static double median(long[] xs) {
        long[] c = xs.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }
}
