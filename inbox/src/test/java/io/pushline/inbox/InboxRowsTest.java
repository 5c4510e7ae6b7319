package io.pushline.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.eval.IdSet;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class InboxRowsTest {
    @Test
    void unionMergesBroadcastsIntoTheSentIdsInOrderEachOnce() {
        RoaringBitmap sent = RoaringBitmap.bitmapOf(3, 7, 9, 70_000, 200_000);
        assertThat(InboxRows.union(sent, new int[] {1, 7, 8, 100_000, 300_000}))
                .containsExactly(1, 3, 7, 8, 9, 70_000, 100_000, 200_000, 300_000);
        assertThat(InboxRows.union(sent, new int[0])).containsExactly(3, 7, 9, 70_000, 200_000);
        assertThat(InboxRows.union(new RoaringBitmap(), new int[] {4, 5})).containsExactly(4, 5);
    }

    @Test
    void storedBytesAreReadInPlaceAsTheBitmapTheyCameFrom() {
        Random rnd = new Random(7);
        for (int round = 0; round < 50; round++) {
            RoaringBitmap b = new RoaringBitmap();
            TreeSet<Integer> expected = new TreeSet<>();
            int n = rnd.nextInt(5_000);
            for (int i = 0; i < n; i++) {
                int id = rnd.nextInt(round % 2 == 0 ? 1_000 : 5_000_000);
                b.add(id);
                expected.add(id);
            }
            if (round % 3 == 0) {
                b.add(10_000L, 20_000L); // a run container
                for (int id = 10_000; id < 20_000; id++) {
                    expected.add(id);
                }
            }
            b.runOptimize();
            byte[] stored = InboxRows.checked(IdSet.wrap(b).toBytes());
            int[] more = {5_000_001, 5_000_003};
            expected.add(5_000_001);
            expected.add(5_000_003);
            assertThat(InboxRows.union(InboxRows.trusted(stored), more))
                    .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        }
    }
}
