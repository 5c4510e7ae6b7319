package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Topics;
import io.pushline.testkit.Checkpoints;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Path;
import java.time.Duration;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign killed mid-expansion (job cancelled, no savepoint) and restored from its last
 * checkpoint: every selected device gets the push exactly once, and the restored job expanded only
 * what the checkpoint had not.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CampaignRestoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            Clusters.twoSlots(METRICS.addToConfiguration(new Configuration()));

    static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir Path checkpoints;
    @TempDir Path files;

    /**
     * Free chunks (each stamped when expanded, its rate adapted to the pacer's reports): what
     * production runs. The held mode's restore (the watermark kept below a resumed campaign) is
     * CampaignExpanderTest's {@code aRestoreResumesAfterTheLastCheckpointedChunk}; running it here
     * too took 45 s of the suite's 15 minutes for the same Kafka transactions.
     */
    @Test
    void aCampaignKilledMidwayIsResumedFromTheCheckpointWithEachDeviceOnce() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        Campaigns population = new Campaigns(3_000, "itrestorefree");
        population.buildSegments(stack, files);
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, population.binds());
        KafkaTopics.produce(
                kafka,
                Topics.PUSH_REQUESTS,
                List.<String[]>of(
                        Campaigns.campaign("c1", Campaigns.T + 1_000, Campaigns.EXPRESSION)));
        Campaigns.tick(kafka, Campaigns.T + 5_000);
        long audience =
                java.util.stream.IntStream.range(0, 3_000).filter(population::selected).count();

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), population.namespace);
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        // Event time moves with the input only (ticks), as in a catch-up; see the README.
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-restore-free");
        opts.put(DispatchOptions.AUDIENCE_HOLD_WATERMARK.key(), "false");
        // About four seconds of expansion, so the kill lands in the middle of it.
        opts.put(DispatchOptions.AUDIENCE_MAX_IDS_PER_SECOND.key(), "150");
        // exactly once must hold at the settings production runs with (frequent, unaligned)
        Configuration flink = Checkpoints.retained(stack.flinkConfiguration(), checkpoints);

        JobClient first = Restores.start(flink, opts);
        // Early, so that seconds of expansion are left when the checkpoint after this moment,
        // which may first wait for one under way, passes the expander.
        Checkpoints.waitUntil(
                () -> expanded(first.getJobID()) >= audience / 6,
                "a sixth of the audience expanded",
                WAIT);
        Checkpoints.awaitOneTriggeredAfterNow(
                checkpoints, first.getJobID(), "a checkpoint after that", WAIT);
        first.cancel().get(1, TimeUnit.MINUTES);
        long beforeKill = expanded(first.getJobID());
        Path restoreFrom = Checkpoints.latest(checkpoints, first.getJobID()).orElseThrow();

        Configuration restored = new Configuration(flink);
        restored.setString("execution.state-recovery.path", restoreFrom.toUri().toString());
        JobClient second = Restores.start(restored, opts);
        // The restored source resumes after the first tick: new input moves its watermark.
        Campaigns.tick(kafka, Campaigns.T + 6_000);
        TreeSet<String> expected = population.expectedSends("c1");
        // Free chunks are stamped with the event time they are expanded at: like any push after
        // that time, they are decided once later input moves the watermark past it.
        long[] clock = {Campaigns.T + 6_000, 0};
        Checkpoints.waitUntil(
                () -> {
                    if (++clock[1] % 5 == 0) {
                        clock[0] += 1_000;
                        tick(kafka, clock[0]);
                    }
                    return Campaigns.sends(kafka).size() >= expected.size();
                },
                "every send committed",
                WAIT);
        // Two more checkpoints: a duplicate would have been committed by now.
        Checkpoints.awaitMore(checkpoints, second.getJobID(), 2, "two more checkpoints", WAIT);
        List<String> sends = Campaigns.sends(kafka);
        long resumed = expanded(second.getJobID());
        second.cancel().get(1, TimeUnit.MINUTES);

        assertThat(sends).hasSameSizeAs(expected);
        assertThat(new TreeSet<>(sends)).isEqualTo(expected);
        // Restored in the middle of the campaign, the job did not start it over: it expanded only
        // the rest.
        assertThat(resumed).isGreaterThan(0).isLessThan(audience);
        assertThat(resumed + beforeKill).isGreaterThanOrEqualTo(audience);

        // Transactional ids are pooled: each sink subtask reuses a few ids instead of a new one
        // per checkpoint, which the broker would keep for a week (KafkaIO.jsonSink). Both runs took
        // dozens of checkpoints; seven sinks at parallelism 2, each with its open transaction and
        // those waiting for their commit, make far fewer ids.
        // (the restored job numbers its checkpoints on from the one it restored)
        long checkpointsTaken = Checkpoints.latestNumber(checkpoints, second.getJobID());
        List<String> ids = transactionalIds(kafka, "it-restore-free");
        assertThat(ids).isNotEmpty().hasSizeLessThanOrEqualTo(7 * 2 * 3);
        assertThat(checkpointsTaken).isGreaterThan(ids.size());
    }

    /** The transactional ids with {@code prefix} that the broker knows, whatever their state. */
    private static List<String> transactionalIds(String kafka, String prefix) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka))) {
            return admin.listTransactions().all().get(1, TimeUnit.MINUTES).stream()
                    .map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith(prefix + "-"))
                    .sorted()
                    .toList();
        }
    }

    /** Ids the campaign expander of {@code job} has emitted. */
    private static long expanded(JobID job) {
        return Restores.counter(METRICS, job, "Expand campaigns", "audienceIds");
    }

    private static void tick(String kafka, long ts) {
        try {
            Campaigns.tick(kafka, ts);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
