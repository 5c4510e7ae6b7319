package io.pushline.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WaitingQueueTest {
    @Test
    void pollsInOrderWhateverTheArrivalOrder() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            WaitingQueue<Long> q = new WaitingQueue<>();
            PriorityQueue<Long> model = new PriorityQueue<>();
            int channels = 1 + random.nextInt(6);
            long[] clock = new long[channels];
            List<Long> polled = new ArrayList<>();
            List<Long> expected = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                if (random.nextInt(5) == 0 && !model.isEmpty()) {
                    assertThat(q.peek()).isEqualTo(model.peek());
                    polled.add(q.poll());
                    expected.add(model.poll());
                    continue;
                }
                int c = random.nextInt(channels);
                // mostly in order per channel, sometimes far behind
                clock[c] += random.nextInt(10);
                long v = random.nextInt(20) == 0 ? clock[c] - random.nextInt(1000) : clock[c];
                q.add(v);
                model.add(v);
                assertThat(q.size()).isEqualTo(model.size());
            }
            assertThat(q).containsExactlyInAnyOrderElementsOf(model);
            while (!model.isEmpty()) {
                polled.add(q.poll());
                expected.add(model.poll());
            }
            assertThat(polled).isEqualTo(expected);
            assertThat(q.isEmpty()).isTrue();
            assertThat(q.poll()).isNull();
        }
    }

    @Test
    void pollIfTakesTheSmallestOnlyWhenItQualifies() {
        WaitingQueue<Long> q = new WaitingQueue<>();
        for (long v : new long[] {5, 1, 9, 3}) {
            q.add(v);
        }
        assertThat(q.pollIf(v -> v <= 3)).isEqualTo(1L);
        assertThat(q.pollIf(v -> v <= 3)).isEqualTo(3L);
        assertThat(q.pollIf(v -> v <= 3)).isNull();
        assertThat(q.size()).isEqualTo(2);
        assertThat(q.peek()).isEqualTo(5L);
        q.poll();
        q.poll();
        assertThat(q.pollIf(v -> true)).isNull();
    }
}
