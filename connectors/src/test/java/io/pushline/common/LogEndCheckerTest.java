package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class LogEndCheckerTest {
    private static final TopicPartition PARTITION = new TopicPartition("push.requests", 0);

    /**
     * A consumer that cannot even be made (no bootstrap address) fails every check: once nobody
     * asks any more, as when the job that asked has ended, the thread still ends and leaves the
     * map, instead of warning once a second for ever with the job's class loader held.
     */
    @Test
    void aCheckerThatOnlyFailsEndsOnceNobodyAsks() throws Exception {
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", "");
        kafka.put("test.case", "fails-" + System.nanoTime());
        Set<Thread> before = checkerThreads();
        LogEndChecker checker = LogEndChecker.of(kafka, 300);
        assertThat(checker.verifiedAt(PARTITION, 5)).isEqualTo(Long.MIN_VALUE);
        // started by of(), so alive now: it can end only after its first failure's second out
        Set<Thread> started = checkerThreads();
        started.removeAll(before);
        assertThat(started).hasSize(1);
        Thread thread = started.iterator().next();

        thread.join(15_000);

        assertThat(thread.isAlive()).as("the failing checker's thread ended").isFalse();
        assertThat(checker.describe()).contains("last check failed");
        assertThat(LogEndChecker.of(kafka, 300)).isNotSameAs(checker);
    }

    /**
     * The thread does not take the asking task's context class loader, which closes with its job:
     * the consumer it makes again after a failure must still load its classes.
     */
    @Test
    void theCheckersThreadDoesNotKeepTheAskersContextClassLoader() throws Exception {
        Properties kafka = new Properties();
        kafka.put("bootstrap.servers", "");
        kafka.put("test.case", "loader-" + System.nanoTime());
        ClassLoader jobLoader = new ClassLoader(getClass().getClassLoader()) {};
        Set<Thread> before = checkerThreads();
        Thread asker =
                new Thread(
                        () -> LogEndChecker.of(kafka, 30_000).verifiedAt(PARTITION, 5), "a task");
        asker.setContextClassLoader(jobLoader);
        asker.start();
        asker.join();
        Set<Thread> started = checkerThreads();
        started.removeAll(before);

        assertThat(started).hasSize(1);
        assertThat(started.iterator().next().getContextClassLoader())
                .isSameAs(LogEndChecker.class.getClassLoader())
                .isNotSameAs(jobLoader);
    }

    private static Set<Thread> checkerThreads() {
        Set<Thread> out = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("pushline-log-ends-")) {
                out.add(t);
            }
        }
        return out;
    }
}
