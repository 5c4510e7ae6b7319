package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
    @Test
    void smallLatenciesAreExactAndLargeOnesWithinOneThirtySecond() {
        for (long ms = 0; ms < 16; ms++) {
            assertThat(LatencyHistogram.value(LatencyHistogram.bucket(ms))).isEqualTo(ms);
        }
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            long ms = 16 + rnd.nextLong(86_400_000L);
            long v = LatencyHistogram.value(LatencyHistogram.bucket(ms));
            assertThat((double) v).isCloseTo(ms, Offset.offset(ms / 32.0 + 1));
        }
    }

    @Test
    void percentilesOfAKnownSetAreThoseOfTheSortedValues() {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] values = new long[10_001];
        int[] h = null;
        for (int i = 0; i < values.length; i++) {
            values[i] = rnd.nextLong(120_000);
            h = LatencyHistogram.add(h, values[i]);
        }
        Arrays.sort(values);
        for (double p : new double[] {0.5, 0.9, 0.99}) {
            long exact = values[(int) Math.ceil(p * values.length) - 1];
            assertThat((double) LatencyHistogram.percentile(h, p))
                    .isCloseTo(exact, Offset.offset(exact / 32.0 + 1));
        }
    }

    @Test
    void mergingEqualsAddingAll() {
        int[] a = LatencyHistogram.add(LatencyHistogram.add(null, 5), 40_000);
        int[] b = LatencyHistogram.add(null, 700);
        int[] all =
                LatencyHistogram.add(
                        LatencyHistogram.add(LatencyHistogram.add(null, 5), 40_000), 700);
        assertThat(LatencyHistogram.merge(a, b)).containsExactly(all);
        assertThat(LatencyHistogram.percentile(null, 0.5)).isZero();
    }
}
