package io.pushline.dispatch;

import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What the dispatch kill-and-restore ITCases share besides {@link io.pushline.testkit.Checkpoints}:
 * starting the job, reading its counters.
 */
final class Restores {
    private Restores() {}

    /** Starts the dispatch job at parallelism 2 and returns at once. */
    static JobClient start(Configuration flink, Map<String, String> opts) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        return DispatchJob.start(env, Configuration.fromMap(opts));
    }

    /** A counter of an operator of {@code job}, summed over its subtasks. */
    static long counter(InMemoryReporter metrics, JobID job, String operator, String counter) {
        long n = 0;
        for (OperatorMetricGroup g : metrics.findOperatorMetricGroups(job, operator)) {
            Metric m = metrics.getMetricsByGroup(g).get(counter);
            if (m != null) {
                n += ((Counter) m).getCount();
            }
        }
        return n;
    }
}
