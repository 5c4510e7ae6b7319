package io.pushline.bench;

import io.pushline.cluster.LocalCluster;
import io.pushline.cluster.Role;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Restarts a cluster process that exited without a planned fault, as Kubernetes or systemd would in
 * production, and keeps a record of it. On this 2-core machine a starved process can end on its own
 * (chaos run 20: HBase's ZooKeeper sessions expired during a job's recovery and HBase shut itself
 * down; nothing started it again, so the run waited ten minutes for a job that could not read the
 * dictionary). A fault the bench runs holds its process ({@link #hold}) so it is left alone.
 */
final class Supervisor extends Thread implements AutoCloseable {
    private static final long CHECK_MS = 2_000;

    private final LocalCluster cluster;
    private final Set<Role> held = ConcurrentHashMap.newKeySet();
    private final List<String> restarts = new ArrayList<>();
    private volatile boolean closed;

    Supervisor(LocalCluster cluster) {
        super("chaos-supervisor");
        setDaemon(true);
        this.cluster = cluster;
    }

    /** Leaves {@code role} alone until {@link #release}: a planned fault stops or kills it. */
    void hold(Role role) {
        held.add(role);
    }

    void release(Role role) {
        held.remove(role);
    }

    /** The processes that exited on their own and were started again, as printed. */
    synchronized List<String> restarts() {
        return List.copyOf(restarts);
    }

    @Override
    public void run() {
        while (!closed) {
            for (Role role : cluster.layout().roles()) {
                if (closed || held.contains(role) || cluster.process(role).isPresent()) {
                    continue;
                }
                restart(role);
            }
            try {
                Thread.sleep(CHECK_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Starts a process again, up to three times: on this loaded 2-core machine a TaskManager
     * started while the job recovers has timed out creating its RPC system (10 s). The fault under
     * test is the kill or the exit, not the restart.
     */
    void startAgain(Role role) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                cluster.start(role);
                return;
            } catch (java.io.IOException e) {
                if (attempt == 3) {
                    throw e;
                }
                System.out.printf(
                        "    %s did not start (%s); starting it again%n",
                        role.id(), e.getMessage());
            }
        }
    }

    private void restart(Role role) {
        // wall-clock time, as the process logs have it
        String when = LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString();
        System.out.printf(
                "    %s exited on its own at %s (no planned fault; see %s); starting it again%n",
                role.id(), when, cluster.logFile(role));
        String outcome;
        try {
            long t0 = System.nanoTime();
            startAgain(role);
            outcome = String.format("up again in %.1f s", (System.nanoTime() - t0) / 1e9);
        } catch (Exception e) {
            outcome = "did not start: " + e.getMessage();
        }
        System.out.printf("    %s %s%n", role.id(), outcome);
        synchronized (this) {
            restarts.add(role.id() + " exited on its own at " + when + ", " + outcome);
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        interrupt();
        join(60_000);
    }

    /**
     * Kills a TaskManager, restarts it once the JobManager has noticed; the kill's time, or -1 when
     * there was no process to kill or the JobManager never let it go (then the kill did not happen
     * as a crash, and is not counted).
     */
    long killAndRestart(Role tm) throws Exception {
        long at = System.currentTimeMillis();
        if (!cluster.kill(tm)) {
            System.out.printf("    %s was not running: nothing killed%n", tm.id());
            return -1;
        }
        long deadline = System.currentTimeMillis() + 60_000;
        boolean gone = false;
        while (!gone && System.currentTimeMillis() < deadline) {
            gone = !cluster.rest().taskManagers().contains(tm.resourceId());
            if (!gone) {
                Thread.sleep(200);
            }
        }
        if (!gone) {
            System.out.printf("    the JobManager still lists %s 60 s after the kill%n", tm.id());
            startAgain(tm);
            return -1;
        }
        System.out.printf(
                "    the JobManager let %s go after %.1f s; restarting it%n",
                tm.id(), (System.currentTimeMillis() - at) / 1e3);
        startAgain(tm);
        return at;
    }
}
