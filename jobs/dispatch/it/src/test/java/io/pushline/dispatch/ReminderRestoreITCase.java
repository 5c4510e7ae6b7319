package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.reminders.ReminderLine;
import io.pushline.schema.reminders.ReminderTimes;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two reminder tasks firing in the same second through the dispatch job on the real stack (Kafka,
 * HBase dictionary, RocksDB, production checkpoint settings), the job cancelled while the pacer is
 * halfway and restored from its last checkpoint: every subscriber that did not pull is pushed
 * exactly once, at the shared rate, and refused events reach reminder.rejected.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReminderRestoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            Clusters.twoSlots(METRICS.addToConfiguration(new Configuration()));

    static final Duration WAIT = Duration.ofMinutes(2);
    static final int USERS = 1_500;
    static final int RATE = 200;

    @TempDir Path checkpoints;

    @Test
    void tasksKilledWhileFiringAreResumedWithEachSubscriberPushedOnce() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        long now = System.currentTimeMillis();
        long fireAt = now + 15_000;
        List<String[]> binds = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            for (String d : Campaigns.devices(i)) {
                binds.add(
                        DispatchKafkaITCase.kv(
                                d,
                                DispatchKafkaITCase.bind(
                                        now - 60_000,
                                        d,
                                        Campaigns.uid(i),
                                        Campaigns.vendor(d),
                                        "tok-" + d,
                                        null,
                                        null)));
            }
        }
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, binds);
        List<String[]> tasks = new ArrayList<>();
        tasks.add(task("r1", now - 5_000, fireAt));
        tasks.add(task("r2", now - 5_000, fireAt + 300)); // the same second, after r1
        KafkaTopics.produce(kafka, Topics.REMINDER_TASKS, tasks);
        List<String[]> subs = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            subs.add(user("subscribe", now - 4_000, i % 4 == 0 ? "r2" : "r1", i));
        }
        for (int i = 0; i < USERS; i += 5) {
            subs.add(user("pull", now - 3_000, i % 4 == 0 ? "r2" : "r1", i));
        }
        for (int i = 0; i < USERS; i += 11) {
            subs.add(user("unsubscribe", now - 2_000, i % 4 == 0 ? "r2" : "r1", i));
        }
        subs.add(user("subscribe", now - 2_000, "r404", 1)); // unknown_task
        KafkaTopics.produce(kafka, Topics.REMINDER_SUBSCRIPTIONS, subs);
        // A pull counts from the freeze (midnight of the fire date, UTC here) on.
        boolean pullsFrozen = now - 3_000 >= ReminderTimes.freeze(fireAt, "UTC");

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itreminders");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-reminders");
        opts.put(DispatchOptions.AUDIENCE_HOLD_WATERMARK.key(), "false");
        opts.put(DispatchOptions.REMINDERS_ENABLED.key(), "true");
        opts.put(DispatchOptions.REMINDERS_RATE.key(), Integer.toString(RATE));
        // the meter's queue is state too: the restore must neither lose nor repeat what it held
        opts.put(DispatchOptions.REMINDERS_METER_DELAY.key(), "1 s");
        Configuration flink = Checkpoints.retained(stack.flinkConfiguration(), checkpoints);

        TreeSet<String> expected = new TreeSet<>();
        List<String> expectedPulls = new ArrayList<>();
        long toPush = 0;
        for (int i = 0; i < USERS; i++) {
            boolean gone = i % 11 == 0;
            boolean pulled = pullsFrozen && i % 5 == 0;
            if (pulled && !gone) {
                expectedPulls.add(
                        "reminder-" + (i % 4 == 0 ? "r2" : "r1") + "/" + Campaigns.uid(i));
            }
            if (gone || pulled) {
                continue;
            }
            toPush++;
            for (String d : Campaigns.devices(i)) {
                expected.add("reminder-" + (i % 4 == 0 ? "r2" : "r1") + "/" + d);
            }
        }

        JobClient first = Restores.start(flink, opts);
        // Early, so that the pacer still has seconds of pushes to go when the checkpoint after
        // this moment, which may first wait for one under way, passes it.
        long tenth = toPush / 10;
        Checkpoints.waitUntil(
                () -> paced(first.getJobID()) >= tenth, "a tenth of the reminders paced", WAIT);
        Checkpoints.awaitOneTriggeredAfterNow(
                checkpoints, first.getJobID(), "a checkpoint after that", WAIT);
        first.cancel().get(1, TimeUnit.MINUTES);

        Configuration restored = new Configuration(flink);
        restored.setString(
                "execution.state-recovery.path",
                Checkpoints.latest(checkpoints, first.getJobID()).orElseThrow().toUri().toString());
        JobClient second = Restores.start(restored, opts);
        Checkpoints.waitUntil(
                () -> sends(kafka).size() >= expected.size(), "every reminder committed", WAIT);
        Checkpoints.awaitMore(checkpoints, second.getJobID(), 2, "two more checkpoints", WAIT);
        List<String> sends = sends(kafka);
        long resumed = paced(second.getJobID());
        second.cancel().get(1, TimeUnit.MINUTES);

        assertThat(sends).hasSameSizeAs(expected);
        assertThat(new TreeSet<>(sends)).isEqualTo(expected);
        // The restored checkpoint holds a pacer that had pushed some and not all: killed while
        // firing, and it went on instead of starting over.
        assertThat(resumed)
                .as("the restored pacer went on, it did not start over")
                .isGreaterThan(0)
                .isLessThan(toPush);
        List<String> refused = new ArrayList<>();
        for (String line : KafkaTopics.readAll(kafka, Topics.REMINDER_REJECTED)) {
            ReminderLine l = Json.read(line, ReminderLine.class);
            refused.add(l.taskId + "/" + l.reason);
        }
        assertThat(refused).contains("r404/unknown_task");
        // who pulled is not pushed but decided once, as pulled
        List<String> pulls = new ArrayList<>();
        for (io.pushline.schema.Decision d : Campaigns.decisions(kafka)) {
            if ("pulled".equals(d.reason)) {
                pulls.add(d.msgId + "/" + d.uid);
            }
        }
        assertThat(pulls).containsExactlyInAnyOrderElementsOf(expectedPulls);
    }

    private static String[] task(String id, long ts, long fireAt) {
        return KafkaTopics.kv(
                id,
                String.format(
                        "{\"ts\":%d,\"type\":\"task\",\"op\":\"create\",\"taskId\":\"%s\","
                                + "\"fireAt\":%d,\"zone\":\"UTC\",\"title\":\"Launch\","
                                + "\"body\":\"claim your gift\"}",
                        ts, id, fireAt));
    }

    private static String[] user(String type, long ts, String task, int i) {
        return KafkaTopics.kv(
                task,
                String.format(
                        "{\"ts\":%d,\"type\":\"%s\",\"taskId\":\"%s\",\"uid\":\"%s\"}",
                        ts, type, task, Campaigns.uid(i)));
    }

    /** "msgId/deviceId" of every send on the vendor topics, duplicates kept. */
    private static List<String> sends(String kafka) {
        List<String> out = new ArrayList<>();
        for (String s : Campaigns.sends(kafka)) {
            String[] p = s.split("/");
            out.add(p[0] + "/" + p[1]);
        }
        return out;
    }

    /** Reminder pushes the pacer of {@code job} has let out. */
    private static long paced(JobID job) {
        return Restores.counter(METRICS, job, "Pace reminders", "remindersPushed");
    }
}
