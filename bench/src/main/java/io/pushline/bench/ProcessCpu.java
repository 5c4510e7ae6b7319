package io.pushline.bench;

/**
 * CPU the whole process (or, {@link #machine}, every process of the machine) used since it started,
 * in cores (2.0: both cores busy).
 */
record ProcessCpu(long cpuNanos, long wallNanos, boolean wholeMachine) {
    static ProcessCpu start() {
        return new ProcessCpu(processCpu(), System.nanoTime(), false);
    }

    /** The machine's busy time from /proc/stat: for jobs that run in processes of their own. */
    static ProcessCpu machine() {
        return new ProcessCpu(machineCpu(), System.nanoTime(), true);
    }

    double cores() {
        long wall = System.nanoTime() - wallNanos;
        long used = (wholeMachine ? machineCpu() : processCpu()) - cpuNanos;
        return wall <= 0 ? 0 : used / (double) wall;
    }

    /** Busy CPU time of all cores (user, nice, system, irq, softirq, steal) in nanoseconds. */
    private static long machineCpu() {
        try {
            String[] f =
                    java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat"))
                            .get(0)
                            .trim()
                            .split("\\s+");
            long ticks = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                ticks += Long.parseLong(f[i]);
            }
            return ticks * 10_000_000L; // USER_HZ 100
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long processCpu() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun
                ? sun.getProcessCpuTime()
                : 0;
    }
}
