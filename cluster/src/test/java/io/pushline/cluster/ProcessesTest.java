package io.pushline.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessesTest {
    @TempDir Path home;

    @Test
    void aPidWithoutTheRolesMarkerIsNeverTakenForOurs() throws Exception {
        ClusterLayout layout = new ClusterLayout(home, ClusterLayout.findRoot());
        Files.createDirectories(layout.pids());
        // this JVM is alive, but it is not the cluster's Kafka
        Files.writeString(
                layout.pids().resolve("kafka.pid"), Long.toString(ProcessHandle.current().pid()));
        Processes processes = new Processes(layout);
        assertThat(processes.find(Role.KAFKA)).isEmpty();
        assertThat(processes.kill(Role.KAFKA)).isFalse();
        assertThat(ProcessHandle.current().isAlive()).isTrue();
    }

    @Test
    void aSpawnedProcessIsFoundByItsPidFileAndKilled() throws Exception {
        ClusterLayout layout = new ClusterLayout(home, ClusterLayout.findRoot());
        Files.createDirectories(layout.pids());
        Files.createDirectories(layout.logs());
        Files.createDirectories(layout.conf());
        Processes processes = new Processes(layout);
        // a JVM that waits until killed: stands in for a TaskManager
        ProcessHandle p =
                processes.spawn(
                        Role.TASKMANAGER_1,
                        List.of("-Xmx32m"),
                        System.getProperty("java.class.path"),
                        List.of(Sleeper.class.getName()));
        try {
            awaitJvm(p);
            assertThat(processes.find(Role.TASKMANAGER_1))
                    .map(ProcessHandle::pid)
                    .contains(p.pid());
            assertThat(processes.find(Role.TASKMANAGER_2)).isEmpty();
            assertThat(processes.kill(Role.TASKMANAGER_1)).isTrue();
            assertThat(p.isAlive()).isFalse();
            assertThat(processes.find(Role.TASKMANAGER_1)).isEmpty();
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void rolesParseByTheirNames() {
        assertThat(Role.parse("taskmanager-2")).isEqualTo(Role.TASKMANAGER_2);
        assertThat(Role.TASKMANAGER_2.resourceId()).isEqualTo("tm-2");
        assertThatThrownBy(() -> Role.parse("tm-3")).hasMessageContaining("taskmanager-1");
    }

    @Test
    void theClientsShutdownHookTraceIsHiddenAndNothingElse() {
        boolean in = FlinkCli.isHookNoise("Job has been submitted with JobID 1234", false);
        assertThat(in).isFalse();
        in =
                FlinkCli.isHookNoise(
                        "Exception in thread \"Thread-3\" java.lang.NoClassDefFoundError:"
                                + " org/apache/hadoop/util/ShutdownHookManager$2",
                        in);
        assertThat(in).isTrue();
        in = FlinkCli.isHookNoise("\tat org.apache.hadoop.util.ShutdownHookManager.run", in);
        assertThat(in).isTrue();
        in = FlinkCli.isHookNoise("Caused by: java.lang.ClassNotFoundException: x", in);
        assertThat(in).isTrue();
        assertThat(FlinkCli.isHookNoise("dispatch job abc submitted", in)).isFalse();
        assertThat(FlinkCli.isHookNoise("\tat some.other.Trace", false)).isFalse();
    }

    /** Waits until it is killed (the test's finally kills it if an assertion failed first). */
    /**
     * Waits until the spawned process is the JVM: it starts as {@code setsid}, which execs {@code
     * java}, and while an exec is under way its command line cannot be read (once, {@code kill}
     * found nothing 60 ms after {@code find} had found it).
     */
    private static void awaitJvm(ProcessHandle p) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!p.info().command().map(c -> c.endsWith("/java")).orElse(false)) {
            assertThat(p.isAlive()).as("the spawned JVM is alive").isTrue();
            assertThat(System.nanoTime()).as("the JVM started within 30 s").isLessThan(until);
            try {
                p.onExit().get(20, TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                // not yet java: look again
            }
        }
    }

    public static final class Sleeper {
        public static void main(String[] args) {
            while (true) {
                java.util.concurrent.locks.LockSupport.park();
            }
        }
    }
}
