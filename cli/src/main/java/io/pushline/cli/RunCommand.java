package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.LocalEnv;
import io.pushline.common.OptionsParser;
import io.pushline.common.UsageException;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.receipts.ReceiptsJob;
import io.pushline.receipts.ReceiptsOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** {@code ./pushline run dispatch|receipts [--key value ...]}: a job on a local MiniCluster. */
final class RunCommand {
    private RunCommand() {}

    static int run(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("dispatch") || args[0].equals("receipts"))) {
            throw new UsageException(
                    "usage: ./pushline run dispatch|receipts [--key value ...] (see ./pushline help"
                            + " options)");
        }
        String name = args[0];
        Path home = LocalStack.defaultDir();
        List<String> all = new ArrayList<>(localEnvDefaults(home));
        all.addAll(Arrays.asList(args).subList(1, args.length));
        Configuration options =
                OptionsParser.parse(
                        all.toArray(new String[0]),
                        name.equals("dispatch")
                                ? DispatchOptions.accepted()
                                : ReceiptsOptions.accepted());
        OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP);

        Configuration flink = LocalFlink.configuration(home.resolve("flink-run"));
        if (name.equals("dispatch") && LocalFlink.findConfDir() != null) {
            // production's checkpoint and flush settings: realtime sends visible within a second
            LocalFlink.productionCheckpoints().forEach(flink::setString);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        JobClient job =
                name.equals("dispatch")
                        ? DispatchJob.start(env, options)
                        : ReceiptsJob.start(env, options);
        System.out.printf(
                "%s job %s running against Kafka %s%s. Ctrl-C stops it.%n",
                name,
                job.getJobID(),
                options.get(CommonOptions.KAFKA_BOOTSTRAP),
                options.get(CommonOptions.HBASE_ZK_QUORUM) == null
                        ? ""
                        : " and HBase " + options.get(CommonOptions.HBASE_ZK_QUORUM));
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
     * {@code --kafka.bootstrap-servers} and {@code --hbase.zookeeper.quorum} from {@code
     * local.env}, when {@code ./pushline local up} wrote one; given options come later and win.
     */
    static List<String> localEnvDefaults(Path home) throws Exception {
        return LocalEnv.options(home);
    }
}
