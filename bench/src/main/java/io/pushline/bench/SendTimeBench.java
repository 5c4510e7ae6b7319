package io.pushline.bench;

import io.pushline.local.gen.NightlyData;
import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.sendtime.SendTimeJob;
import io.pushline.sendtime.predict.SendTimeRules;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench sendtime [--users N] [--seed S]}: generated users with known habits
 * (NightlyData, activity on the 9 days before the date), through a plain BATCH keyed reduce and
 * through the send-time job with each predictor, one after the other on a local environment
 * (parallelism 2); events/s of each, and how often each predictor lands within 30 minutes of the
 * user's true wake-up and bedtime.
 */
@Command(
        name = "sendtime",
        mixinStandardHelpOptions = true,
        description = "A plain reduce vs the send-time predictors, accuracy vs truth.")
final class SendTimeBench extends Bench {
    static final LocalDate DATE = LocalDate.of(2026, 11, 22);
    static final int DAYS = 9;

    /**
     * What k8s/base/nightly.yaml gives one 2-slot TaskManager (4096m process: 3430m Flink memory
     * after metaspace and JVM overhead, managed fraction 0.5). The bench used 1 GB until
     * 2026-11-23: at that, recall's sort of 2M users' input spills and recall/plain drops to 0.44
     * (0.56 at 2 GB).
     */
    static final String MANAGED_MEMORY = "1715m";

    @Option(names = "--users", paramLabel = "N", description = "Users (default ${DEFAULT-VALUE}).")
    int users = 1_000_000;

    @Option(names = "--seed", paramLabel = "S", description = "Default ${DEFAULT-VALUE}.")
    long seed = 1;

    @Mixin Rounds rounds;

    @Override
    public Integer call() throws Exception {
        int repeat = rounds.count();
        System.out.printf(
                "bench sendtime: %,d generated users, activity on the %d days before %s (seed %d),"
                        + " BATCH, parallelism 2; %d round(s), medians reported%n",
                users, DAYS, DATE, seed, repeat);
        // the first job in a JVM pays for class loading and JIT: a smaller run of each first
        plain(Math.max(1, users / 10), seed);
        predict(Math.max(1, users / 10), seed, SendTimeJob.Predictor.RULES);
        BenchResults results = results();
        // the same seed gives the same users: accuracy is the same in every round
        String[] accuracy = new String[2];
        for (int round = 1; round <= repeat; round++) {
            if (repeat > 1) {
                System.out.printf("round %d of %d%n", round, repeat);
            }
            Run plain = plain(users, seed);
            double plainRate = plain.events / plain.seconds;
            System.out.printf(
                    "plain keyed reduce  %,10.0f events/s  (%,d events in %.1f s)%n",
                    plainRate, plain.events, plain.seconds);
            Map<String, Double> figures = new LinkedHashMap<>();
            figures.put("plainEventsPerSecond", plainRate);
            for (SendTimeJob.Predictor p : SendTimeJob.Predictor.values()) {
                Run r = predict(users, seed, p);
                double rate = r.events / r.seconds;
                figures.put(p + "EventsPerSecond", rate);
                figures.put(p + "PlainRatio", rate / plainRate);
                figures.put(p + "FirstWithin30MinPercent", 100.0 * r.firstWithin / r.users);
                figures.put(p + "LastWithin30MinPercent", 100.0 * r.lastWithin / r.users);
                accuracy[p.ordinal()] =
                        String.format(
                                "first %.1f%%, last %.1f%%",
                                100.0 * r.firstWithin / r.users, 100.0 * r.lastWithin / r.users);
                System.out.printf(
                        "sendtime %-10s %,10.0f events/s  (%,d users in %.1f s); within 30 min of"
                                + " the truth: %s%n",
                        p.name().toLowerCase(), rate, r.users, r.seconds, accuracy[p.ordinal()]);
            }
            results.round(figures);
        }
        results.put("users", users);
        results.put("seed", seed);
        results.write();
        System.out.printf(
                "sendtime/plain ratio %s (rules), %s (histogram); within 30 min: rules %s;"
                        + " histogram %s%n",
                results.medianAndSpread("rulesPlainRatio", "%.2f"),
                results.medianAndSpread("histogramPlainRatio", "%.2f"),
                accuracy[0],
                accuracy[1]);
        return 0;
    }

    static final class Run {
        long events;
        long users;
        long firstWithin;
        long lastWithin;
        double seconds;
    }

    static StreamExecutionEnvironment env() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        // BATCH sorts keyed input in managed memory; the local default (128 MB) makes every job
        // spill. The nightly TaskManager's share (k8s/base/nightly.yaml), for both jobs of each
        // pair.
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse(MANAGED_MEMORY));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        return env;
    }

    private static DataStream<ActivityEvent> activity(
            StreamExecutionEnvironment env, int users, long seed) {
        return env.fromSequence(0, users - 1)
                .flatMap(new Generate(seed))
                .returns(TypeInformation.of(ActivityEvent.class))
                .name("Generated activity");
    }

    static Run plain(int users, long seed) throws Exception {
        StreamExecutionEnvironment env = env();
        activity(env, users, seed)
                .map(new RecordCount<ActivityEvent>("events"))
                .map(e -> Tuple2.of(e.uid, 1L))
                .returns(Types.TUPLE(Types.STRING, Types.LONG))
                .keyBy(t -> t.f0)
                .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1))
                .sinkTo(new DiscardingSink<>());
        long t0 = System.nanoTime();
        JobExecutionResult result = env.execute("bench-sendtime-plain");
        Run r = new Run();
        r.seconds = (System.nanoTime() - t0) / 1e9;
        r.events = result.<Long>getAccumulatorResult("events");
        return r;
    }

    static Run predict(int users, long seed, SendTimeJob.Predictor predictor) throws Exception {
        StreamExecutionEnvironment env = env();
        SendTimeJob.build(
                        activity(env, users, seed).map(new RecordCount<ActivityEvent>("events")),
                        SendTimeRules.defaults(),
                        DATE,
                        predictor)
                .map(new Score(seed))
                .sinkTo(new DiscardingSink<>());
        long t0 = System.nanoTime();
        JobExecutionResult result = env.execute("bench-sendtime-" + predictor);
        Run r = new Run();
        r.seconds = (System.nanoTime() - t0) / 1e9;
        r.events = result.<Long>getAccumulatorResult("events");
        r.users = result.<Long>getAccumulatorResult("users");
        r.firstWithin = result.<Long>getAccumulatorResult("firstWithin30");
        r.lastWithin = result.<Long>getAccumulatorResult("lastWithin30");
        return r;
    }

    static final class Generate implements FlatMapFunction<Long, ActivityEvent> {
        private static final long serialVersionUID = 1L;
        private final long seed;

        Generate(long seed) {
            this.seed = seed;
        }

        @Override
        public void flatMap(Long i, Collector<ActivityEvent> out) {
            NightlyData data = new NightlyData(seed, DATE, DAYS);
            data.activity(data.user(i.intValue()), out::collect);
        }
    }

    /** Compares each prediction with the generator's truth for that user. */
    static final class Score extends RichMapFunction<SendTime, SendTime> {
        private static final long serialVersionUID = 1L;
        private final long seed;
        private transient NightlyData data;
        private transient LongCounter users;
        private transient LongCounter first;
        private transient LongCounter last;

        Score(long seed) {
            this.seed = seed;
        }

        @Override
        public void open(OpenContext ctx) {
            data = new NightlyData(seed, DATE, DAYS);
            users = getRuntimeContext().getLongCounter("users");
            first = getRuntimeContext().getLongCounter("firstWithin30");
            last = getRuntimeContext().getLongCounter("lastWithin30");
        }

        @Override
        public SendTime map(SendTime s) {
            NightlyData.User u = data.user(Integer.parseInt(s.uid.substring(1)));
            users.add(1L);
            if (Math.abs(minutes(s.first) - u.wake()) <= 30) {
                first.add(1L);
            }
            if (Math.abs(minutes(s.last) - u.sleep()) <= 30) {
                last.add(1L);
            }
            return s;
        }

        private static int minutes(String hhmm) {
            return Integer.parseInt(hhmm.substring(0, 2)) * 60
                    + Integer.parseInt(hhmm.substring(3));
        }
    }
}
