package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class CpuMeterTest {
    /** A thread that ends before the meter closes is still counted, an idle one is not. */
    @Test
    void countsTheCpuTimeOfTheOperatorsThreadsOnly() throws Exception {
        assumeTrue(CpuMeter.available(), "needs Linux /proc");
        CpuMeter meter = CpuMeter.start("Busy -> Sink");
        CountDownLatch done = new CountDownLatch(1);
        Thread busy = new Thread(() -> spin(400), "Busy -> Sink: Writer (1/2)#0");
        Thread idle = new Thread(() -> await(done), "Busy -> Sink: Writer (2/2)#0");
        Thread other = new Thread(() -> spin(300), "Source: Sequence (1/2)#0");
        busy.start();
        idle.start();
        other.start();
        busy.join();
        other.join();
        done.countDown();
        idle.join();
        meter.close();
        // 400 ms of CPU, counted in 10 ms ticks, less what ran after the last 20 ms read.
        assertThat(meter.secs(CpuMeter.Group.OPERATOR)).isBetween(0.3, 0.5);
        assertThat(meter.threads(CpuMeter.Group.OPERATOR)).isEqualTo(1);
        assertThat(meter.processSecs()).isGreaterThanOrEqualTo(0.6);
    }

    private static void spin(long cpuMillis) {
        var bean = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = bean.getCurrentThreadCpuTime() + cpuMillis * 1_000_000L;
        long x = 0;
        while (bean.getCurrentThreadCpuTime() < end) {
            x += System.nanoTime() % 7;
        }
        if (x == 42) {
            System.out.print("");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
