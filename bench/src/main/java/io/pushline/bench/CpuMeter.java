package io.pushline.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time used during a benchmark run, per group of threads, from Linux's per-thread accounting
 * ({@code /proc/self/task/TID/stat}). The generating source shares the machine's cores with the
 * operator under test, so "events per core" of an operator is its events divided by the CPU seconds
 * spent for it: its task threads, RocksDB's background threads (flushes, compactions) and the
 * asynchronous part of its checkpoints.
 *
 * <p>Task threads end with their job, so every 20 ms new threads are looked for and the measured
 * ones read, and the last value seen is kept; a thread's CPU time after its last read (at most 20
 * ms of closing work) is not counted. Threads that existed before the run count from their value
 * then. The whole process's CPU time comes from the JVM.
 */
final class CpuMeter implements AutoCloseable {
    private static final long PERIOD_MS = 20;
    // USER_HZ: the unit of utime and stime, 100 on every Linux architecture Java runs on.
    private static final double TICKS_PER_SECOND = 100.0;
    private static final Path TASKS = Path.of("/proc/self/task");

    enum Group {
        OPERATOR,
        ROCKSDB,
        SNAPSHOTS
    }

    private record Seen(Path task, Group group, long first, long last) {}

    private final String prefix;
    private final Map<String, Seen> seen = new HashMap<>();
    // Threads of no group, by id, with when first seen: a new thread has its parent's name until
    // the JVM names it, so it is looked at again for a while.
    private final Map<String, Long> ignored = new HashMap<>();
    private static final long NAMING_NANOS = 200_000_000L;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final long processStart = os.getProcessCpuTime();
    private final long[] machineStart = machine();
    private long[] machineEnd;
    private long processNanos;
    private final long wallStart = System.nanoTime();
    private final java.util.concurrent.ScheduledExecutorService sampler =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "pushline-cpu-meter");
                        t.setDaemon(true);
                        return t;
                    });
    private boolean baseline = true;
    private double wallSecs;

    private CpuMeter(String operatorName) {
        // The kernel keeps the first 15 bytes of a thread's name.
        this.prefix = operatorName.length() > 15 ? operatorName.substring(0, 15) : operatorName;
        scan();
        baseline = false;
        sampler.scheduleAtFixedRate(
                this::sample, PERIOD_MS, PERIOD_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Starts measuring; the operator's task threads are those whose name starts with it. */
    static CpuMeter start(String operatorName) {
        return new CpuMeter(operatorName);
    }

    static boolean available() {
        return Files.isDirectory(TASKS);
    }

    private synchronized void sample() {
        scan();
        reread();
    }

    private synchronized void scan() {
        if (!available()) {
            return;
        }
        long now = System.nanoTime();
        java.util.Set<String> known = new java.util.HashSet<>();
        ignored.forEach(
                (tid, since) -> {
                    if (now - since > NAMING_NANOS) {
                        known.add(tid);
                    }
                });
        for (Seen s : seen.values()) {
            known.add(s.task.getFileName().toString());
        }
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.filter(t -> !known.contains(t.getFileName().toString())).forEach(this::read);
        } catch (IOException | java.io.UncheckedIOException e) {
            // A thread ended while being listed; the next scan sees the rest.
        }
    }

    private synchronized void reread() {
        for (Seen s : List.copyOf(seen.values())) {
            read(s.task);
        }
    }

    private void read(Path task) {
        String stat;
        try {
            stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
            return; // the thread has ended
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return;
        }
        String name = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).split(" ");
        // After the name: state(3) ... utime(14) stime(15), counted from 1 over the whole line.
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        Group group = group(name);
        if (group == null) {
            ignored.putIfAbsent(task.getFileName().toString(), System.nanoTime());
            return;
        }
        String key = task.getFileName() + " " + name;
        Seen old = seen.get(key);
        long first = old != null ? old.first : (baseline ? ticks : 0);
        seen.put(key, new Seen(task, group, first, Math.max(ticks, old == null ? 0 : old.last)));
    }

    private Group group(String name) {
        if (name.startsWith(prefix)) {
            return Group.OPERATOR;
        }
        if (name.startsWith("rocksdb:")) {
            return Group.ROCKSDB;
        }
        if (name.startsWith("AsyncOperations")) {
            return Group.SNAPSHOTS;
        }
        return null;
    }

    @Override
    public void close() throws InterruptedException {
        sampler.shutdownNow();
        sampler.awaitTermination(1, java.util.concurrent.TimeUnit.SECONDS);
        sample();
        processNanos = os.getProcessCpuTime() - processStart;
        machineEnd = machine();
        wallSecs = (System.nanoTime() - wallStart) / 1e9;
    }

    /** CPU seconds used by one group of threads during the run. */
    synchronized double secs(Group group) {
        long ticks = 0;
        for (Seen s : seen.values()) {
            if (s.group == group) {
                ticks += s.last - s.first;
            }
        }
        return ticks / TICKS_PER_SECOND;
    }

    synchronized int threads(Group group) {
        int n = 0;
        for (Seen s : seen.values()) {
            if (s.group == group && s.last > s.first) {
                n++;
            }
        }
        return n;
    }

    /** CPU seconds spent for the operator: its threads, RocksDB's and its snapshots'. */
    double operatorSecs() {
        return secs(Group.OPERATOR) + secs(Group.ROCKSDB) + secs(Group.SNAPSHOTS);
    }

    double processSecs() {
        return processNanos / 1e9;
    }

    /**
     * The share of the machine's CPU time the hypervisor gave to others during the run ("steal"),
     * or -1 where the kernel does not tell: a noisy neighbour slows every figure of the run.
     */
    double stealShare() {
        if (machineStart == null || machineEnd == null) {
            return -1;
        }
        long total = machineEnd[0] - machineStart[0];
        return total <= 0 ? -1 : (double) (machineEnd[1] - machineStart[1]) / total;
    }

    /** {total, steal} ticks of all CPUs, from the first line of /proc/stat. */
    private static long[] machine() {
        long[] f = procStat();
        if (f == null) {
            return null;
        }
        long total = 0;
        for (long ticks : f) {
            total += ticks;
        }
        return new long[] {total, f[7]};
    }

    /**
     * The ticks of all CPUs in the first line of /proc/stat: user nice system idle iowait irq
     * softirq steal (guest time is already in user); null where it cannot be read.
     */
    static long[] procStat() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            if (f.length <= 8) {
                return null;
            }
            long[] ticks = new long[8];
            for (int i = 0; i < 8; i++) {
                ticks[i] = Long.parseLong(f[i + 1]);
            }
            return ticks;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Cores the whole process kept busy on average. */
    double processCores() {
        return processSecs() / wallSecs;
    }
}
