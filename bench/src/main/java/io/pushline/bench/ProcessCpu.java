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

    /** Busy CPU time of all cores (all but idle and iowait) in nanoseconds, 0 if unknown. */
    private static long machineCpu() {
        long[] f = CpuMeter.procStat();
        if (f == null) {
            return 0;
        }
        long busy = 0;
        for (int i = 0; i < f.length; i++) {
            busy += i == 3 || i == 4 ? 0 : f[i];
        }
        return busy * 10_000_000L; // USER_HZ 100
    }

    private static long processCpu() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun
                ? sun.getProcessCpuTime()
                : 0;
    }
}
