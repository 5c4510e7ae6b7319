package io.pushline.cli;

import io.pushline.audience.SegmentFolder;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.StoreAudiences;
import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.Expr;
import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.ExpressionParser;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
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
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * {@code ./pushline audience ...}: audience expressions over a folder of segments (folder mode of
 * docs/audience-expressions.md) or over the HBase segment store (the default without {@code
 * --segments}), and the segment build.
 */
final class AudienceCommand {
    static final String USAGE =
            String.join(
                    "\n",
                    "usage: ./pushline audience eval --segments DIR --expr 'EXPR' [--universe FILE]"
                            + " [--count]",
                    "       ./pushline audience eval [--store] --expr 'EXPR' [--count]",
                    "       ./pushline audience count 'EXPR' [--segments DIR [--universe FILE]]",
                    "       ./pushline audience explain 'EXPR' [--segments DIR [--universe FILE]]",
                    "       ./pushline audience list",
                    "       ./pushline audience dry-run --expr 'EXPR' --msg-type TYPE"
                            + " [--checkpoints DIR] [--json]",
                    "       ./pushline audience build [--files DIR] [--key value ...]",
                    "Store commands use the stack of ./pushline local up, or"
                            + " --hbase.zookeeper.quorum and --hbase.namespace.");

    private AudienceCommand() {}

    /** Arguments: the command's own flags, one positional expression, and job options. */
    private static final class Args {
        String command;
        Path segments;
        Path universe;
        Path files;
        String expr;
        boolean count;
        final List<String> options = new ArrayList<>();
    }

    static int run(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("dry-run")) {
            String expr = null;
            List<String> rest = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                if (args[i].equals("--expr") && i + 1 < args.length) {
                    expr = args[++i];
                } else {
                    rest.add(args[i]);
                }
            }
            return DryRunCommand.run(expr, rest);
        }
        Args a = parse(args);
        switch (a.command) {
            case "eval":
                return eval(a);
            case "count":
                a.count = true;
                return eval(a);
            case "explain":
                return explain(a);
            case "list":
                return list(a);
            case "build":
                return build(a);
            default:
                throw new UsageException("unknown audience command '" + a.command + "'\n" + USAGE);
        }
    }

    private static Args parse(String[] args) {
        if (args.length == 0) {
            throw new UsageException(USAGE);
        }
        Args a = new Args();
        a.command = args[0];
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--segments":
                    a.segments = Paths.get(value(args, ++i));
                    break;
                case "--universe":
                    a.universe = Paths.get(value(args, ++i));
                    break;
                case "--files":
                    a.files = Paths.get(value(args, ++i));
                    break;
                case "--expr":
                    a.expr = value(args, ++i);
                    break;
                case "--count":
                    a.count = true;
                    break;
                case "--store":
                    break;
                default:
                    if (args[i].startsWith("--")) {
                        a.options.add(args[i]);
                        a.options.add(value(args, ++i));
                    } else if (a.expr == null && !a.command.equals("eval")) {
                        a.expr = args[i];
                    } else {
                        throw new UsageException("unexpected argument '" + args[i] + "'\n" + USAGE);
                    }
            }
        }
        if (a.universe != null && a.segments == null) {
            throw new UsageException("--universe needs --segments DIR\n" + USAGE);
        }
        return a;
    }

    private static int eval(Args a) throws Exception {
        if (a.expr == null) {
            throw new UsageException(USAGE);
        }
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
        if (a.expr == null) {
            throw new UsageException(USAGE);
        }
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

    private static int list(Args a) throws Exception {
        Configuration options = storeOptions(a);
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

    private static int build(Args a) throws Exception {
        List<String> opts = new ArrayList<>(a.options);
        if (a.files != null) {
            opts.add("--" + SegmentsOptions.FILES.key());
            opts.add(a.files.toString());
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

    private static Configuration storeOptions(Args a) throws Exception {
        Configuration options = jobOptions(a.options);
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
                : new StoreAudience(storeOptions(a));
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

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new UsageException(USAGE);
        }
        return args[i];
    }
}
