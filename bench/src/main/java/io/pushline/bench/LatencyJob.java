package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import io.pushline.common.CommonOptions;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The dispatch job {@code bench latency} runs, and the requests it sends the job. */
final class LatencyJob {
    static final String NAMESPACE = "benchlatency";

    /** Reminder pushes a second while the reminder phase's task fires. */
    static final int REMINDER_RATE = 30_000;

    private LatencyJob() {}

    static JobClient start(
            LocalStack stack,
            Path dir,
            Map<String, String> production,
            boolean pacing,
            String id,
            int restPort,
            Map<String, String> overrides)
            throws Exception {
        Configuration flink = BenchCluster.jobCluster(dir, restPort, production);
        // every checkpoint of a phase in the REST history, not the last ten
        flink.setString("web.checkpoints.history", "100000");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.putAll(options(pacing, id, overrides));
        return DispatchJob.start(env, Configuration.fromMap(opts));
    }

    /**
     * The job's options besides where Kafka and HBase are: its namespace, group and transactions,
     * pacing on or off, and as production runs it; {@code overrides} (--set) last.
     */
    static Map<String, String> options(boolean pacing, String id, Map<String, String> overrides) {
        Map<String, String> opts = new java.util.LinkedHashMap<>();
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), NAMESPACE);
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.GROUP_ID.key(), "bench-" + id);
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "bench-" + id);
        opts.put(DispatchOptions.PACING_ENABLED.key(), Boolean.toString(pacing));
        // as production runs it (k8s/base/dispatch.yaml): campaigns decided as they are expanded,
        // reminder tasks read and fired
        opts.put(DispatchOptions.AUDIENCE_HOLD_WATERMARK.key(), "false");
        opts.put(DispatchOptions.REMINDERS_ENABLED.key(), "true");
        // the seeds' reminder traffic (and bench reminders'), not the default 1,000 a second
        opts.put(DispatchOptions.REMINDERS_RATE.key(), Integer.toString(REMINDER_RATE));
        opts.putAll(overrides);
        return opts;
    }

    /**
     * Waits until the job's HBase registry writes stop growing for 3 s (at most 5 minutes): the
     * bindings it has just loaded are mirrored.
     */
    static void settled(int port, String jobId) throws Exception {
        FlinkRest rest = FlinkRest.local(port);
        long t0 = System.currentTimeMillis();
        long last = -1;
        int still = 0;
        while (still < 3 && System.currentTimeMillis() - t0 < 300_000) {
            long now = rest.sum(jobId, "hbase.registry.mutations");
            still = now == last && now > 0 ? still + 1 : 0;
            last = now;
            Thread.sleep(1000);
        }
        System.out.printf(
                "  registry mirrored to HBase: %,d mutations, settled %.1f s after the binds loaded%n",
                last, (System.currentTimeMillis() - t0) / 1e3);
    }

    /** Waits until a push sent now to a realtime device is visible: the job is caught up. */
    static long marker(String kafka, VisibleSends seen, String msgId, int device) throws Exception {
        long t0 = System.currentTimeMillis();
        request(kafka, msgId, "{\"uids\":[\"rt-u" + device + "\"]}", 3);
        seen.await(msgId, 1, Duration.ofMinutes(10));
        return System.currentTimeMillis() - t0;
    }

    static long request(String kafka, String msgId, String target, int level) throws Exception {
        try (KafkaProducer<String, String> p = Pushes.producer(kafka)) {
            long now = System.currentTimeMillis();
            p.send(
                            new ProducerRecord<>(
                                    Topics.PUSH_REQUESTS,
                                    msgId,
                                    Pushes.push(msgId, now, target, level)))
                    .get();
            return now;
        }
    }
}
