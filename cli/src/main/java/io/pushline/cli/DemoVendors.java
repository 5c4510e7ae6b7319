package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.emulators.Behaviour;
import io.pushline.emulators.Counts;
import io.pushline.emulators.Emulators;
import io.pushline.gateway.GatewayJob;
import io.pushline.gateway.GatewayOptions;
import io.pushline.local.LocalStack;
import io.pushline.schema.Vendor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The demo's last hop: the gateway job (bounded) sends every push of the vendor topics to the
 * vendor emulators with each vendor's protocol, and their answers are its receipts.
 */
final class DemoVendors {
    private DemoVendors() {}

    /** One stale token in a hundred, one call in fifty failing once (retried), no latency. */
    static final Behaviour DEMO = Behaviour.PLAIN.withInvalidShare(0.01).withErrorShare(0.02);

    static void run(LocalStack stack, Path dir) throws Exception {
        long t0 = System.nanoTime();
        try (Emulators emulators = LocalEmulators.start(dir, DEMO)) {
            List<String> args = new ArrayList<>();
            for (Map.Entry<String, String> o : stack.jobOptions().entrySet()) {
                args.add("--" + o.getKey());
                args.add(o.getValue());
            }
            for (Map.Entry<String, String> o : LocalEmulators.options(dir, emulators).entrySet()) {
                args.add("--" + o.getKey());
                args.add(o.getValue());
            }
            args.addAll(
                    List.of(
                            "--" + CommonOptions.KAFKA_BOUNDED.key(),
                            "true",
                            "--" + CommonOptions.KAFKA_STARTING_OFFSETS.key(),
                            "earliest"));
            Configuration options =
                    OptionsParser.parse(args.toArray(new String[0]), GatewayOptions.accepted());
            Configuration flink = stack.flinkConfiguration();
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(flink);
            env.setParallelism(2);
            JobClient job = GatewayJob.start(env, options);
            var result = job.getJobExecutionResult();
            while (!result.isDone()) {
                System.out.printf(
                        "      %5.1f s  %s; the emulators took %,d sends so far%n",
                        DemoCommand.secs(t0),
                        DemoCommand.status(job),
                        emulators.total(c -> c.accepted));
                try {
                    result.get(5, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException stillRunning) {
                    // Print progress again.
                }
            }
            result.get();
            StringBuilder b = new StringBuilder();
            for (Vendor v : GatewayOptions.VENDORS) {
                Counts c = emulators.counts(v);
                b.append(
                        String.format(
                                "%n        %-7s %,7d calls, %,7d accepted, %,5d stale tokens, %,4d 5xx retried",
                                v.wireName(),
                                c.calls.get(),
                                c.accepted.get(),
                                c.invalid.get(),
                                c.errors.get()));
            }
            System.out.printf(
                    "      the gateway job sent every push of the vendor topics to the vendor emulators"
                            + " (%.1f s):%s%n",
                    DemoCommand.secs(t0), b);
        }
    }
}
