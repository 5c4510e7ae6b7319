package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.dispatch.hostile.HostileCases;
import io.pushline.dispatch.hostile.HostileRun;
import io.pushline.dispatch.hostile.JobWatch;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Topics;
import io.pushline.testkit.Clusters;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hostile-input suite against the dispatch job on the embedded stack (Kafka, HBase, RocksDB,
 * the production restart strategy): every hostile record of every input topic is a dead letter with
 * a reason or harmlessly decided, the canary after each is decided, no secret token reaches the
 * dead letters, and the job never stops.
 */
class HostileInputITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    @Test
    void noHostileRecordStopsTheJobOrLeaksAToken() throws Exception {
        LocalStack stack = STACK.get();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "500 ms");
        opts.put(DispatchOptions.MAX_OUT_OF_ORDERNESS.key(), "200 ms");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-hostile");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        HostileCases cases = new HostileCases(System.currentTimeMillis(), "it");
        var all = cases.all();
        HostileRun.Report report;
        try (JobWatch watch = new JobWatch(job);
                HostileRun run = new HostileRun(stack.kafkaBootstrap(), new Properties(), "it")) {
            report =
                    run.allAtOnce(
                            cases.all(), cases.secrets(), Duration.ofMinutes(3), watch::stops);
        } finally {
            job.cancel().get();
        }
        assertThat(report.problems()).isEmpty();
        assertThat(report.inputs()).isEqualTo(all.size()).isGreaterThan(40);
        assertThat(report.jobsStopped()).isZero();
        assertThat(report.canariesDecided()).isEqualTo(report.inputs());
        assertThat(report.deadLettered()).isEqualTo(report.deadLettersExpected());
        assertThat(report.tokensLeaked()).isZero();
        assertThat(report.passed()).isTrue();
    }
}
