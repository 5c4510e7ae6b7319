package io.pushline.bench;

/** CPU the whole process used since {@link #start}, in cores (2.0: both cores busy). */
record ProcessCpu(long cpuNanos, long wallNanos) {
    static ProcessCpu start() {
        return new ProcessCpu(processCpu(), System.nanoTime());
    }

    double cores() {
        long wall = System.nanoTime() - wallNanos;
        return wall <= 0 ? 0 : (processCpu() - cpuNanos) / (double) wall;
    }

    private static long processCpu() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun
                ? sun.getProcessCpuTime()
                : 0;
    }
}
