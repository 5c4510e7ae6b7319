package io.pushline.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * Waits until this JVM's JIT compilers have mostly done their work. The embedded stack runs Kafka,
 * HBase, Flink and the job in one JVM: two minutes after its start the compilers still took about
 * one of the two cores (1,498 methods and 16.7 s of compiler time in 15 s of phase 0, jstat), which
 * a TaskManager that has run for a while no longer pays.
 */
final class JitSettle {
    /** Compiler time per wall-clock time under which the JIT counts as settled. */
    static final double SETTLED = 0.15;

    private static final long WINDOW_MS = 5_000;

    private JitSettle() {}

    /** Waits (at most {@code max}) and prints how long it took and the last compile share. */
    static void await(Duration max) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long t0 = System.currentTimeMillis();
        double share = Double.NaN;
        while (System.currentTimeMillis() - t0 < max.toMillis()) {
            long before = jit.getTotalCompilationTime();
            Thread.sleep(WINDOW_MS);
            share = (jit.getTotalCompilationTime() - before) / (double) WINDOW_MS;
            if (share < SETTLED) {
                break;
            }
        }
        System.out.printf(
                "  JIT: %.0f%% of a core compiling after %.0f s of waiting (settled below %.0f%%;"
                        + " at most %d s)%n",
                share * 100,
                (System.currentTimeMillis() - t0) / 1e3,
                SETTLED * 100,
                max.toSeconds());
    }
}
