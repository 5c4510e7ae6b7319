package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.JobOptionArgs;
import io.pushline.common.LocalEnv;
import io.pushline.common.OptionsParser;
import io.pushline.common.UsageException;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.gateway.GatewayJob;
import io.pushline.gateway.GatewayOptions;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.longconn.LongconnJob;
import io.pushline.longconn.LongconnOptions;
import io.pushline.receipts.ReceiptsJob;
import io.pushline.receipts.ReceiptsOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./pushline run dispatch|receipts|longconn|gateway|all [--key value ...]}: a job, or every
 * streaming job, on a local MiniCluster.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = {
            "Run a streaming job (all: every one, on one MiniCluster) on local Flink (RocksDB)"
                    + " until Ctrl-C, against .pushline/local.env or the given options.",
            "Any --key value is a job option (./pushline help options)."
        })
final class RunCommand extends JobOptionArgs.Command implements Callable<Integer> {
    /**
     * The dispatch job as k8s/base/dispatch.yaml runs it on live traffic: campaigns and long lists
     * decided as they are expanded, so realtime pushes never wait for one (the option's default,
     * true, is replay's exact order), and reminder tasks read and fired. A later option on the
     * command line overrides these.
     */
    static final List<String> LIVE_DISPATCH =
            List.of(
                    "--" + DispatchOptions.AUDIENCE_HOLD_WATERMARK.key(),
                    "false",
                    "--" + DispatchOptions.REMINDERS_ENABLED.key(),
                    "true");

    @Parameters(paramLabel = "JOB", description = "dispatch, receipts, longconn, gateway or all")
    String job;

    @Override
    public Integer call() throws Exception {
        if (!List.of("dispatch", "receipts", "longconn", "gateway", "all").contains(job)) {
            throw new UsageException(
                    "run: JOB is dispatch, receipts, longconn, gateway or all, not " + job);
        }
        return job.equals("all") ? runAll(jobOptions()) : runOne(job, jobOptions());
    }

    private static int runOne(String name, List<String> args) throws Exception {
        Path home = LocalStack.defaultDir();
        List<String> all = new ArrayList<>(localEnvDefaults(home));
        if (name.equals("dispatch")) {
            all.addAll(LIVE_DISPATCH);
        }
        if (name.equals("gateway")) {
            all.addAll(LocalEnv.gatewayOptions(home));
        }
        all.addAll(args);
        Configuration options =
                OptionsParser.parse(
                        all.toArray(new String[0]),
                        switch (name) {
                            case "dispatch" -> DispatchOptions.accepted();
                            case "longconn" -> LongconnOptions.accepted();
                            case "gateway" -> GatewayOptions.accepted();
                            default -> ReceiptsOptions.accepted();
                        });
        OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP);

        // The dispatch job's folder is where the console's dry run looks by default: only its own.
        Configuration flink =
                LocalFlink.configuration(
                        home.resolve(name.equals("dispatch") ? "flink-run" : "flink-run-" + name));
        if (!name.equals("receipts") && LocalFlink.findConfDir() != null) {
            // production's checkpoint and flush settings: sends and retries visible within a second
            LocalFlink.productionCheckpoints().forEach(flink::setString);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        JobClient job =
                switch (name) {
                    case "dispatch" -> DispatchJob.start(env, options);
                    case "longconn" -> LongconnJob.start(env, options);
                    case "gateway" -> GatewayJob.start(env, options);
                    default -> ReceiptsJob.start(env, options);
                };
        System.out.printf(
                "%s job %s running against %s. Ctrl-C stops it.%n",
                name, job.getJobID(), stack(options));
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        job.cancel().get();
                                    } catch (Exception ignored) {
                                        // The job may have finished on its own.
                                    }
                                },
                                "pushline-run-stop"));
        job.getJobExecutionResult().get();
        System.out.println(name + " job finished");
        return 0;
    }

    /**
     * Every streaming job (dispatch with the inbox writer, receipts, long connection, the gateway
     * to the vendors, pointed at local up's emulators by its gateway.env) on one local MiniCluster,
     * each at parallelism 2 in slots of its own, until Ctrl-C. Options go to every job that accepts
     * them.
     */
    static int runAll(List<String> args) throws Exception {
        Path home = LocalStack.defaultDir();
        List<String> all = new ArrayList<>(localEnvDefaults(home));
        all.addAll(LIVE_DISPATCH);
        all.addAll(LocalEnv.gatewayOptions(home));
        all.addAll(args);
        Map<String, ConfigOption<?>> accepted = new LinkedHashMap<>();
        for (ConfigOption<?> o : DispatchOptions.accepted()) {
            accepted.put(o.key(), o);
        }
        for (ConfigOption<?> o : ReceiptsOptions.accepted()) {
            accepted.put(o.key(), o);
        }
        for (ConfigOption<?> o : LongconnOptions.accepted()) {
            accepted.put(o.key(), o);
        }
        for (ConfigOption<?> o : GatewayOptions.accepted()) {
            accepted.put(o.key(), o);
        }
        Configuration options =
                OptionsParser.parse(all.toArray(new String[0]), new ArrayList<>(accepted.values()));
        OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP);

        Configuration flink = LocalFlink.configuration(home.resolve("flink-run-all"));
        if (LocalFlink.findConfDir() != null) {
            LocalFlink.productionCheckpoints().forEach(flink::setString);
        }
        int jobs = 4;
        MiniClusterConfiguration cluster =
                new MiniClusterConfiguration.Builder()
                        .setConfiguration(flink)
                        .setNumTaskManagers(1)
                        .setNumSlotsPerTaskManager(2 * jobs)
                        .build();
        try (MiniCluster mini = new MiniCluster(cluster)) {
            mini.start();
            Map<String, JobID> started = new LinkedHashMap<>();
            StreamExecutionEnvironment dispatch = env(flink);
            DispatchJob.wire(dispatch, options);
            started.put("dispatch", submit(mini, dispatch));
            StreamExecutionEnvironment receipts = env(flink);
            ReceiptsJob.wire(receipts, options);
            started.put("receipts", submit(mini, receipts));
            StreamExecutionEnvironment longconn = env(flink);
            LongconnJob.wire(longconn, options);
            started.put("longconn", submit(mini, longconn));
            StreamExecutionEnvironment gateway = env(flink);
            GatewayJob.wire(gateway, options);
            started.put("gateway", submit(mini, gateway));
            started.forEach((n, id) -> System.out.printf("%s job %s running%n", n, id));
            System.out.printf(
                    "all jobs on one MiniCluster against %s. Ctrl-C stops them.%n", stack(options));
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> started.values().forEach(id -> cancel(mini, id)),
                                    "pushline-run-all-stop"));
            for (Map.Entry<String, JobID> e : started.entrySet()) {
                mini.requestJobResult(e.getValue()).get();
                System.out.println(e.getKey() + " job finished");
            }
        }
        return 0;
    }

    /** "Kafka host:port and HBase host:port", as the jobs were given them. */
    private static String stack(Configuration options) {
        String hbase = options.get(CommonOptions.HBASE_ZK_QUORUM);
        return "Kafka "
                + options.get(CommonOptions.KAFKA_BOOTSTRAP)
                + (hbase == null ? "" : " and HBase " + hbase);
    }

    private static StreamExecutionEnvironment env(Configuration flink) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        return env;
    }

    private static JobID submit(MiniCluster mini, StreamExecutionEnvironment env) throws Exception {
        return mini.submitJob(env.getStreamGraph()).get().getJobID();
    }

    private static void cancel(MiniCluster mini, JobID id) {
        try {
            mini.cancelJob(id).get();
        } catch (Exception ignored) {
            // finished on its own, or the cluster is going down
        }
    }

    /**
     * {@code --kafka.bootstrap-servers} and {@code --hbase.zookeeper.quorum} from {@code
     * local.env}, when {@code ./pushline local up} wrote one; given options come later and win.
     */
    static List<String> localEnvDefaults(Path home) throws Exception {
        return LocalEnv.options(home);
    }
}
