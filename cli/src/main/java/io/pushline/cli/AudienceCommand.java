package io.pushline.cli;

import io.pushline.audience.SegmentFolder;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.StoreAudiences;
import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.Expr;
import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.ExpressionParser;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.Cli;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.JobOptionArgs;
import io.pushline.common.OptionsParser;
import io.pushline.common.UsageException;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.schema.segments.BuiltSegment;
import io.pushline.segments.SegmentsJob;
import io.pushline.segments.SegmentsOptions;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./pushline audience ...}: audience expressions over a folder of segments (folder mode of
 * docs/audience-expressions.md) or over the HBase segment store (the default without {@code
 * --segments}), and the segment build.
 */
@Command(
        name = "audience",
        mixinStandardHelpOptions = true,
        description = {
            "Audience expressions (docs/audience-expressions.md) over a folder of segments"
                    + " (--segments) or the HBase segment store, and the segment build.",
            "Store commands use the stack of ./pushline local up, or --hbase.zookeeper.quorum Q"
                    + " and --hbase.namespace NS."
        },
        subcommands = {
            AudienceCommand.Eval.class,
            AudienceCommand.Count.class,
            AudienceCommand.Explain.class,
            AudienceCommand.ListSegments.class,
            DryRunCommand.class,
            AudienceCommand.Build.class
        })
final class AudienceCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.missingSubcommand(spec);
    }

    /** What every audience command takes: where the segments are, and store options. */
    abstract static class Args extends JobOptionArgs.Command {
        @Option(
                names = "--segments",
                paramLabel = "DIR",
                description = "A folder of segment files (default: the segment store).")
        Path segments;

        @Option(
                names = "--universe",
                paramLabel = "FILE",
                description = "The uids NOT is taken against (needs --segments).")
        Path universe;

        String expr;
        boolean count;

        Args checked() {
            if (universe != null && segments == null) {
                throw new UsageException("--universe needs --segments DIR");
            }
            return this;
        }
    }

    @Command(
            name = "eval",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = "The uids an audience expression selects, one per line.")
    static final class Eval extends Args implements Callable<Integer> {
        @Option(names = "--expr", required = true, paramLabel = "EXPR")
        void expr(String e) {
            expr = e;
        }

        @Option(names = "--count", description = "Print only how many.")
        void count(boolean c) {
            count = c;
        }

        @Option(names = "--store", description = "Use the segment store (the default).")
        boolean store;

        @Override
        public Integer call() throws Exception {
            return eval(checked());
        }
    }

    @Command(
            name = "count",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = "How many uids an audience expression selects.")
    static final class Count extends Args implements Callable<Integer> {
        @Parameters(paramLabel = "EXPR")
        void expr(String e) {
            expr = e;
        }

        @Override
        public Integer call() throws Exception {
            count = true;
            return eval(checked());
        }
    }

    @Command(
            name = "explain",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = "The expression's tree with each node's size.")
    static final class Explain extends Args implements Callable<Integer> {
        @Parameters(paramLabel = "EXPR")
        void expr(String e) {
            expr = e;
        }

        @Override
        public Integer call() throws Exception {
            return explain(checked());
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = "Segments in the store: size, version, age, source.")
    static final class ListSegments extends JobOptionArgs.Command implements Callable<Integer> {

        @Override
        public Integer call() throws Exception {
            return list(jobOptions());
        }
    }

    @Command(
            name = "build",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = {
                "The segment build job: package files and segment.changes into the store.",
                "Any other --key value is a segment job option (./pushline help options)."
            })
    static final class Build extends JobOptionArgs.Command implements Callable<Integer> {
        @Option(names = "--files", paramLabel = "DIR", description = "Package files to build.")
        Path files;

        @Override
        public Integer call() throws Exception {
            return build(files, jobOptions());
        }
    }

    private static int eval(Args a) throws Exception {
        try (Audience src = open(a)) {
            IdSet result;
            try {
                result = src.evaluator(a.expr).evaluate(src.parsed);
            } catch (ExpressionException e) {
                System.err.println(e.report());
                return 2;
            }
            if (a.count) {
                System.out.println(result.cardinality());
                return 0;
            }
            BufferedWriter out =
                    new BufferedWriter(
                            new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
            result.forEachChunk(
                    10_000,
                    ids -> {
                        for (String uid : src.uids(ids)) {
                            if (uid != null) {
                                out.write(uid);
                                out.write('\n');
                            }
                        }
                    });
            out.flush();
            return 0;
        }
    }

    private static int explain(Args a) throws Exception {
        try (Audience src = open(a)) {
            AudienceEvaluator evaluator;
            try {
                evaluator = src.evaluator(a.expr);
            } catch (ExpressionException e) {
                System.err.println(e.report());
                return 2;
            }
            System.out.println(src.parsed);
            for (String line : evaluator.explain(src.parsed)) {
                System.out.println(line);
            }
            return 0;
        }
    }

    private static int list(List<String> given) throws Exception {
        Configuration options = storeOptions(given);
        try (Connection c =
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(HBaseTables.address(options)));
                SegmentStore store =
                        new SegmentStore(c, options.get(CommonOptions.HBASE_NAMESPACE))) {
            List<SegmentStore.Info> all = store.list();
            int width = all.stream().mapToInt(i -> i.name().length()).max().orElse(7);
            String row = "%-" + Math.max(7, width) + "s  %15s  %7s  %10s  %s%n";
            System.out.printf(row, "SEGMENT", "SIZE", "VERSION", "AGE", "SOURCE");
            long now = System.currentTimeMillis();
            for (SegmentStore.Info i : all) {
                System.out.printf(
                        row,
                        i.name(),
                        String.format("%,d", i.cardinality()),
                        "v" + i.version(),
                        age(Duration.ofMillis(Math.max(0, now - i.builtAt()))),
                        i.source());
            }
            System.out.printf("%d segments%n", all.size());
            return 0;
        }
    }

    private static int build(Path files, List<String> given) throws Exception {
        List<String> opts = new ArrayList<>(given);
        if (files != null) {
            opts.add("--" + SegmentsOptions.FILES.key());
            opts.add(files.toString());
        }
        Configuration options = jobOptions(opts);
        OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP);
        OptionsParser.require(options, CommonOptions.HBASE_ZK_QUORUM);
        Path home = LocalStack.defaultDir();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        LocalFlink.configuration(home.resolve("flink-segments")));
        env.setParallelism(2);
        long start = System.nanoTime();
        SegmentsJob.Report r = SegmentsJob.run(env, options);
        for (BuiltSegment b : r.segments()) {
            System.out.println(b);
        }
        System.out.printf(
                "%d segments built from %,d rows in %.1f s; %,d rows rejected%s%n",
                r.segments().size(),
                r.rows(),
                (System.nanoTime() - start) / 1e9,
                r.rejectedRows(),
                r.rejected().isEmpty() ? "" : " (to push.dlq): " + r.rejected());
        return 0;
    }

    private static String age(Duration d) {
        if (d.toDays() > 0) {
            return d.toDays() + "d" + d.toHoursPart() + "h";
        }
        if (d.toHours() > 0) {
            return d.toHours() + "h" + d.toMinutesPart() + "m";
        }
        return d.toMinutes() > 0
                ? d.toMinutes() + "m" + d.toSecondsPart() + "s"
                : d.toSeconds() + "s";
    }

    private static Configuration jobOptions(List<String> given) throws Exception {
        List<String> all = new ArrayList<>(RunCommand.localEnvDefaults(LocalStack.defaultDir()));
        all.addAll(given);
        return OptionsParser.parse(all.toArray(new String[0]), SegmentsOptions.accepted());
    }

    private static Configuration storeOptions(List<String> given) throws Exception {
        Configuration options = jobOptions(given);
        if (options.get(CommonOptions.HBASE_ZK_QUORUM) == null) {
            throw new UsageException(
                    "no segment store: start one with ./pushline local up, give"
                            + " --hbase.zookeeper.quorum, or use --segments DIR");
        }
        return options;
    }

    private static Audience open(Args a) throws Exception {
        if (a.segments != null && !Files.isDirectory(a.segments)) {
            throw new UsageException("--segments: no folder " + a.segments);
        }
        if (a.universe != null && !Files.isRegularFile(a.universe)) {
            throw new UsageException("--universe: no file " + a.universe);
        }
        return a.segments != null
                ? new FolderAudience(SegmentFolder.load(a.segments, a.universe))
                : new StoreAudience(storeOptions(a.jobOptions()));
    }

    /** Segments from a folder or from the store, as the commands need them. */
    private abstract static class Audience implements AutoCloseable {
        Expr parsed;

        /** Parses {@code expression} and returns an evaluator holding what it names. */
        abstract AudienceEvaluator evaluator(String expression) throws Exception;

        abstract String[] uids(int[] ids) throws java.io.IOException;

        @Override
        public void close() throws Exception {}
    }

    private static final class FolderAudience extends Audience {
        private final SegmentFolder folder;

        FolderAudience(SegmentFolder folder) {
            this.folder = folder;
        }

        @Override
        AudienceEvaluator evaluator(String expression) {
            parsed = ExpressionParser.parse(expression);
            AudienceEvaluator.check(expression, parsed, folder.segments.keySet());
            return new AudienceEvaluator(folder.segments, folder.universe);
        }

        @Override
        String[] uids(int[] ids) {
            String[] out = new String[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = folder.uid(ids[i]);
            }
            return out;
        }
    }

    private static final class StoreAudience extends Audience {
        private final StoreAudiences store;

        StoreAudience(Configuration options) throws Exception {
            store =
                    new StoreAudiences(
                            ConnectionFactory.createConnection(
                                    HBaseTables.clientConf(HBaseTables.address(options))),
                            options.get(CommonOptions.HBASE_NAMESPACE),
                            100_000);
        }

        @Override
        AudienceEvaluator evaluator(String expression) throws Exception {
            parsed = ExpressionParser.parse(expression);
            return store.evaluatorFor(expression, parsed);
        }

        @Override
        String[] uids(int[] ids) throws java.io.IOException {
            return store.uids(ids);
        }

        @Override
        public void close() throws Exception {
            store.close();
        }
    }
}
