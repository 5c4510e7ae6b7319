package io.pushline.bench;

import io.pushline.bench.hostile.HostileCase;
import io.pushline.bench.hostile.HostileCases;
import io.pushline.bench.hostile.HostileRun;
import io.pushline.common.CommonOptions;
import io.pushline.common.JobOptionArgs;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.common.UsageException;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench hostile [--per-case SECONDS] [--kafka.properties.NAME VALUE ...]}: the
 * hostile-input suite against the local stack of {@code ./pushline local up}, from outside. A
 * dispatch job starts on a local MiniCluster (RocksDB, parallelism 2, the production restart
 * strategy), then each hostile record goes to its topic followed by a canary push, one at a time;
 * last line {@code hostile inputs N, jobs stopped S, canaries decided C, tokens leaked T}.
 */
@Command(
        name = "hostile",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = "Hostile records against a dispatch job (needs local up).")
final class HostileBench extends Bench implements JobOptionArgs.Target {
    @Option(
            names = "--per-case",
            paramLabel = "SECONDS",
            description = "Seconds per case (default ${DEFAULT-VALUE}).")
    long perCase = 60;

    private final List<String> options = new ArrayList<>();

    @Override
    public List<String> jobOptions() {
        return options;
    }

    @Override
    public Integer call() throws Exception {
        Properties client =
                KafkaIO.clientProperties(
                        OptionsParser.parse(options.toArray(new String[0]), List.of()));
        Path home = LocalStack.defaultDir();
        Map<String, String> env = LocalStack.readEnv(home);
        String kafka = env.get("KAFKA_BOOTSTRAP");
        if (kafka == null || !reachable(kafka, client)) {
            throw new UsageException(
                    "bench hostile plays against the local stack: start ./pushline local up"
                            + (kafka == null ? "" : " (nothing answers at " + kafka + ")"));
        }
        String run = Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        Map<String, String> opts = new HashMap<>();
        opts.put(CommonOptions.KAFKA_BOOTSTRAP.key(), kafka);
        if (env.get("HBASE_ZK_QUORUM") != null) {
            opts.put(CommonOptions.HBASE_ZK_QUORUM.key(), env.get("HBASE_ZK_QUORUM"));
        }
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "latest");
        client.forEach((k, v) -> opts.put(CommonOptions.KAFKA_PROPERTIES_PREFIX + k, (String) v));
        opts.put(DispatchOptions.GROUP_ID.key(), "pushline-hostile-" + run);
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "pushline-hostile-" + run);
        BenchResults results = results();
        Path work = Files.createTempDirectory("pushline-hostile");
        Configuration flink = BenchCluster.configuration(work);
        StreamExecutionEnvironment senv = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        senv.setParallelism(2);
        HostileCases catalog = new HostileCases(System.currentTimeMillis(), run);
        List<HostileCase> cases = catalog.all();
        System.out.printf(
                "bench hostile: %d hostile records on %s, each followed by a canary push that"
                        + " must be decided within %d s; dispatch job on a local MiniCluster"
                        + " (RocksDB, parallelism 2, the production restart strategy)%n",
                cases.size(), kafka, perCase);
        JobClient job = DispatchJob.start(senv, Configuration.fromMap(opts));
        HostileRun.Report report;
        try (JobWatch watch = new JobWatch(job);
                HostileRun hostile = new HostileRun(kafka, client, run)) {
            if (!hostile.warmUp(Duration.ofMinutes(2))) {
                System.out.println("the job decided no plain push within 2 minutes: not measured");
                return 1;
            }
            report =
                    hostile.oneByOne(
                            cases,
                            catalog.secrets(),
                            Duration.ofSeconds(perCase),
                            watch::stops,
                            line -> System.out.println("  " + line));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
            LocalStack.deleteRecursively(work);
        }
        List<String> secrets = new ArrayList<>(catalog.secrets());
        secrets.add("SECRET-canary-" + run);
        int inLogs = leakedInLogs(home.resolve("logs"), secrets);
        if (inLogs > 0) {
            System.out.println(inLogs + " secret token(s) appear in " + home.resolve("logs"));
        }
        for (String p : report.problems()) {
            System.out.println("problem: " + p);
        }
        int leaked = report.tokensLeaked() + inLogs;
        results.put("inputs", report.inputs());
        results.put("jobsStopped", report.jobsStopped());
        results.put("canariesDecided", report.canariesDecided());
        results.put("deadLettered", report.deadLettered());
        results.put("deadLettersExpected", report.deadLettersExpected());
        results.put("tokensLeaked", leaked);
        results.put("problems", report.problems());
        results.write();
        System.out.printf(
                "hostile inputs %d, jobs stopped %d, canaries decided %d, tokens leaked %d%n",
                report.inputs(), report.jobsStopped(), report.canariesDecided(), leaked);
        return report.passed() && inLogs == 0 ? 0 : 1;
    }

    /** Secrets found in the log files under {@code logs} (this JVM's job logs there too). */
    static int leakedInLogs(Path logs, List<String> secrets) throws Exception {
        if (!Files.isDirectory(logs)) {
            return 0;
        }
        java.util.Set<String> found = new java.util.HashSet<>();
        try (var files = Files.list(logs)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f) && Files.size(f) < 512L * 1024 * 1024) {
                    found.addAll(
                            HostileRun.leaked(
                                    Files.readString(f, StandardCharsets.ISO_8859_1), secrets));
                }
            }
        }
        return found.size();
    }

    private static boolean reachable(String bootstrap, Properties client) {
        Properties p = new Properties();
        p.putAll(client);
        p.put("bootstrap.servers", bootstrap);
        p.put("request.timeout.ms", "5000");
        p.put("default.api.timeout.ms", "5000");
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
