package io.pushline.bench.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hostile-input suite against the dispatch job on the embedded stack (Kafka, HBase, RocksDB):
 * every hostile record of every input topic is a dead letter with a reason or harmlessly decided,
 * the canary after each is decided, no secret token reaches the dead letters, and the job never
 * stops. The job runs without restarts, so any failure leaves it FAILED, which its status shows
 * without watching the clock.
 */
class HostileInputITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @Test
    void noHostileRecordStopsTheJobOrLeaksAToken() throws Exception {
        LocalStack stack = STACK.get();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "500 ms");
        opts.put(DispatchOptions.MAX_OUT_OF_ORDERNESS.key(), "200 ms");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-hostile");
        Configuration flink = stack.flinkConfiguration();
        flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        HostileCases cases = new HostileCases(System.currentTimeMillis(), "it");
        var all = cases.all();
        HostileRun.Report report;
        try (HostileRun run = new HostileRun(stack.kafkaBootstrap(), new Properties(), "it")) {
            report = run.allAtOnce(all, cases.secrets(), Duration.ofMinutes(3), () -> stopped(job));
        } finally {
            if (stopped(job) == 0) {
                job.cancel().get();
            }
        }
        assertThat(report.problems()).isEmpty();
        assertThat(report.inputs()).isEqualTo(all.size()).isGreaterThan(40);
        assertThat(report.jobsStopped()).isZero();
        assertThat(report.canariesDecided()).isEqualTo(report.inputs());
        assertThat(report.deadLettered()).isEqualTo(report.deadLettersExpected());
        assertThat(report.tokensLeaked()).isZero();
        assertThat(report.passed()).isTrue();
    }

    /** 1 once the job is no longer running (without restarts, any failure ends it), else 0. */
    private static int stopped(JobClient job) {
        try {
            return job.getJobStatus().get() == JobStatus.RUNNING ? 0 : 1;
        } catch (Exception e) {
            return 1;
        }
    }
}
