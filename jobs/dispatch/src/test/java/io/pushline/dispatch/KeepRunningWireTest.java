package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.junit.jupiter.api.Test;

/**
 * {@code dispatch.bounded.keep-running}: the input topics stay bounded, the control topics open, so
 * a bounded run decides its input and keeps the job (and its state) up.
 */
class KeepRunningWireTest {
    @Test
    void boundedInputWithOpenControlTopics() throws Exception {
        Map<String, Boundedness> sources = sources(true);
        assertThat(sources)
                .containsEntry("Kafka input", Boundedness.BOUNDED)
                .containsEntry("Kafka rules", Boundedness.CONTINUOUS_UNBOUNDED)
                .containsEntry("Kafka vendor feedback", Boundedness.CONTINUOUS_UNBOUNDED);
    }

    @Test
    void withoutItABoundedRunReadsEveryTopicToItsEnd() throws Exception {
        assertThat(sources(false).values()).containsOnly(Boundedness.BOUNDED).hasSizeGreaterThan(2);
    }

    private static Map<String, Boundedness> sources(boolean keep) throws Exception {
        Configuration options = new Configuration();
        options.set(CommonOptions.KAFKA_BOOTSTRAP, "localhost:9");
        options.set(CommonOptions.KAFKA_BOUNDED, true);
        options.set(DispatchOptions.KEEP_RUNNING, keep);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DispatchJob.wire(env, options);
        Map<String, Boundedness> out = new TreeMap<>();
        for (Transformation<?> t : env.getTransformations()) {
            collect(t, out);
        }
        return out;
    }

    private static void collect(Transformation<?> t, Map<String, Boundedness> out) {
        if (t instanceof SourceTransformation<?, ?, ?> s) {
            out.put(s.getName(), s.getSource().getBoundedness());
        }
        for (Transformation<?> in : t.getInputs()) {
            collect(in, out);
        }
    }
}
