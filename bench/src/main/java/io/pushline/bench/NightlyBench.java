package io.pushline.bench;

import io.pushline.common.UsageException;
import io.pushline.local.gen.NightlyData;
import io.pushline.recall.RecallJob;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.UserRecall;
import io.pushline.sendtime.SendTimeJob;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench nightly [--users N] [--seed S] [--repeat R]}: the two nightly jobs on
 * generated users (NightlyData), each next to a plain BATCH keyed reduce over the same input in the
 * same JVM: send time (activity events, rules predictor) and recall (profiles, history and the
 * catalogue). Local environment, parallelism 2; input generated inside the jobs, so no file reading
 * is timed.
 */
@Command(
        name = "nightly",
        mixinStandardHelpOptions = true,
        description = "The nightly job's halves vs plain BATCH reduces.")
final class NightlyBench extends Bench {
    @Option(names = "--users", paramLabel = "N", description = "Users (default ${DEFAULT-VALUE}).")
    int users = 10_000_000;

    @Option(names = "--seed", paramLabel = "S", description = "Default ${DEFAULT-VALUE}.")
    long seed = 1;

    @Option(names = "--only", paramLabel = "sendtime|recall", description = "Run one half only.")
    String only;

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        if (only != null && !only.equals("sendtime") && !only.equals("recall")) {
            throw new UsageException("--only takes sendtime or recall, not '" + only + "'");
        }
        int materials = NightlyData.materialsFor(users);
        System.out.printf(
                "bench nightly: %,d generated users (seed %d), activity on the %d days before %s,"
                        + " %,d catalogue items; BATCH, parallelism 2; %d round(s) of each job"
                        + " next to its plain reduce, medians reported%n",
                users, seed, SendTimeBench.DAYS, SendTimeBench.DATE, materials, repeat);
        long wall = System.nanoTime();
        boolean withSendTime = !"recall".equals(only);
        boolean withRecall = !"sendtime".equals(only);
        // the first jobs in a JVM pay for class loading and JIT: a smaller run of each first
        int warm = Math.max(1, Math.min(users / 10, 200_000));
        if (withSendTime) {
            SendTimeBench.plain(warm, seed);
            SendTimeBench.predict(warm, seed, SendTimeJob.Predictor.RULES);
        }
        if (withRecall) {
            plainRecall(warm, seed);
            recall(warm, seed);
        }
        // The machine's speed drifts over minutes: each job right after its plain reduce, in
        // rounds,
        // and the median of each ratio.
        BenchResults results = results();
        for (int r = 1; r <= repeat; r++) {
            if (repeat > 1) {
                System.out.printf("round %d of %d%n", r, repeat);
            }
            Map<String, Double> round = new LinkedHashMap<>();
            if (withSendTime) {
                double[] rates = sendTime(users, seed);
                round.put("sendtimePlainEventsPerSecond", rates[0]);
                round.put("sendtimeEventsPerSecond", rates[1]);
                round.put("sendtimePlainRatio", rates[1] / rates[0]);
            }
            if (withRecall) {
                double[] rates = recallVsPlain(users, seed);
                round.put("recallPlainRecordsPerSecond", rates[0]);
                round.put("recallRecordsPerSecond", rates[1]);
                round.put("recallPlainRatio", rates[1] / rates[0]);
            }
            results.round(round);
        }
        System.out.printf(
                "wall time %.1f s (warm-up included)%n", (System.nanoTime() - wall) / 1e9);
        if (repeat > 1) {
            System.out.printf(
                    "median of %d rounds: sendtime %,.0f events/s (plain %,.0f), recall %,.0f"
                            + " records/s (plain %,.0f)%n",
                    repeat,
                    results.median("sendtimeEventsPerSecond"),
                    results.median("sendtimePlainEventsPerSecond"),
                    results.median("recallRecordsPerSecond"),
                    results.median("recallPlainRecordsPerSecond"));
        }
        results.put("users", users);
        results.put("seed", seed);
        results.write();
        System.out.printf(
                "sendtime/plain ratio %s, recall/plain ratio %s%n",
                results.medianAndSpread("sendtimePlainRatio", "%.2f"),
                results.medianAndSpread("recallPlainRatio", "%.2f"));
        return 0;
    }

    /** Plain reduce and send-time job rates, events per second. */
    private static double[] sendTime(int users, long seed) throws Exception {
        SendTimeBench.Run plain = SendTimeBench.plain(users, seed);
        SendTimeBench.Run sendtime =
                SendTimeBench.predict(users, seed, SendTimeJob.Predictor.RULES);
        double plainRate = plain.events / plain.seconds;
        double sendRate = sendtime.events / sendtime.seconds;
        System.out.printf(
                "sendtime  plain keyed reduce %,12.0f events/s  (%,d events in %.1f s)%n",
                plainRate, plain.events, plain.seconds);
        System.out.printf(
                "sendtime  job (rules)        %,12.0f events/s  (%,d events, %,d users in %.1f s)%n",
                sendRate, sendtime.events, sendtime.users, sendtime.seconds);
        return new double[] {plainRate, sendRate};
    }

    /** Plain reduce and recall job rates, records per second. */
    private static double[] recallVsPlain(int users, long seed) throws Exception {
        long[] plainRecall = plainRecall(users, seed);
        long[] recall = recall(users, seed);
        double plainRecallRate = plainRecall[0] / (plainRecall[1] / 1e9);
        double recallRate = recall[0] / (recall[1] / 1e9);
        System.out.printf(
                "recall    plain keyed reduce %,12.0f records/s (%,d records in %.1f s)%n",
                plainRecallRate, plainRecall[0], plainRecall[1] / 1e9);
        System.out.printf(
                "recall    job (k 5)          %,12.0f records/s (%,d records, %,d users in %.1f s)%n",
                recallRate, recall[0], recall[2], recall[1] / 1e9);
        return new double[] {plainRecallRate, recallRate};
    }

    /** Records in, nanoseconds: profiles, history and catalogue through a keyed count. */
    private static long[] plainRecall(int users, long seed) throws Exception {
        StreamExecutionEnvironment env = SendTimeBench.env();
        DataStream<Tuple2<String, Long>> people =
                people(env, users, seed)
                        .map(new RecordCount<>("records"))
                        .returns(TypeInformation.of(RecallInput.class))
                        .map(r -> Tuple2.of(r.uid, 1L))
                        .returns(Types.TUPLE(Types.STRING, Types.LONG));
        DataStream<Tuple2<String, Long>> items =
                catalogue(env, users, seed)
                        .map(new RecordCount<>("records"))
                        .returns(TypeInformation.of(Material.class))
                        .map(m -> Tuple2.of(m.itemId, 1L))
                        .returns(Types.TUPLE(Types.STRING, Types.LONG));
        people.union(items)
                .keyBy(t -> t.f0)
                .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1))
                .sinkTo(new DiscardingSink<>());
        long t0 = System.nanoTime();
        JobExecutionResult r = env.execute("bench-recall-plain");
        return new long[] {r.<Long>getAccumulatorResult("records"), System.nanoTime() - t0};
    }

    /** Records in, nanoseconds, users recalled: the recall job's topology on the same input. */
    private static long[] recall(int users, long seed) throws Exception {
        StreamExecutionEnvironment env = SendTimeBench.env();
        DataStream<RecallInput> people =
                people(env, users, seed)
                        .map(new RecordCount<>("records"))
                        .returns(TypeInformation.of(RecallInput.class));
        DataStream<Material> items =
                catalogue(env, users, seed)
                        .map(new RecordCount<>("records"))
                        .returns(TypeInformation.of(Material.class));
        RecallJob.build(people, items, SendTimeBench.DATE, 5, 7, 50).sinkTo(new CountingSink());
        USERS.set(0);
        long t0 = System.nanoTime();
        JobExecutionResult r = env.execute("bench-recall");
        return new long[] {
            r.<Long>getAccumulatorResult("records"), System.nanoTime() - t0, USERS.get()
        };
    }

    private static DataStream<RecallInput> people(
            StreamExecutionEnvironment env, int users, long seed) {
        return env.fromSequence(0, users - 1)
                .flatMap(new People(seed, NightlyData.materialsFor(users)))
                .returns(TypeInformation.of(RecallInput.class))
                .name("Generated profiles and history");
    }

    private static DataStream<Material> catalogue(
            StreamExecutionEnvironment env, int users, long seed) {
        return env.fromSequence(0, NightlyData.materialsFor(users) - 1)
                .map(new Items(seed))
                .returns(TypeInformation.of(Material.class))
                .name("Generated catalogue");
    }

    /** A user's profile and history records, as the recall job reads them from files. */
    static final class People implements FlatMapFunction<Long, RecallInput> {
        private static final long serialVersionUID = 1L;
        private final long seed;
        private final int materials;
        private transient NightlyData data;

        People(long seed, int materials) {
            this.seed = seed;
            this.materials = materials;
        }

        @Override
        public void flatMap(Long i, Collector<RecallInput> out) {
            if (data == null) {
                data = new NightlyData(seed, SendTimeBench.DATE, SendTimeBench.DAYS);
            }
            NightlyData.User u = data.user(i.intValue());
            RecallInput p = new RecallInput();
            p.uid = u.uid();
            p.kind = RecallInput.PROFILE;
            p.tz = u.tz();
            p.tags = new String[u.interests().size()];
            p.weights = new double[u.interests().size()];
            int k = 0;
            for (Map.Entry<String, Double> e : u.interests().entrySet()) {
                p.tags[k] = e.getKey();
                p.weights[k++] = e.getValue();
            }
            out.collect(p);
            data.history(
                    u,
                    materials,
                    h -> {
                        RecallInput r = new RecallInput();
                        r.uid = u.uid();
                        r.kind = (String) h.get("kind");
                        r.itemId = (String) h.get("itemId");
                        r.ts = (Long) h.get("ts");
                        out.collect(r);
                    });
        }
    }

    static final class Items implements MapFunction<Long, Material> {
        private static final long serialVersionUID = 1L;
        private final long seed;
        private transient NightlyData data;

        Items(long seed) {
            this.seed = seed;
        }

        @Override
        public Material map(Long i) {
            if (data == null) {
                data = new NightlyData(seed, SendTimeBench.DATE, SendTimeBench.DAYS);
            }
            return data.material(i.intValue());
        }
    }

    /** Counts the users recalled and drops them: the job's HBase sink without HBase. */
    static final class CountingSink implements Sink<UserRecall> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<UserRecall> createWriter(WriterInitContext context) {
            // a local run in this JVM: the writers add to a static count
            return new SinkWriter<>() {
                @Override
                public void write(UserRecall element, Context ctx) {
                    USERS.incrementAndGet();
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    static final java.util.concurrent.atomic.AtomicLong USERS =
            new java.util.concurrent.atomic.AtomicLong();
}
