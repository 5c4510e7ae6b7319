package io.pushline.recall;

import io.pushline.common.CommonOptions;
import io.pushline.common.FileLines;
import io.pushline.common.HBaseTables;
import io.pushline.common.OptionsParser;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.TagCandidates;
import io.pushline.schema.recall.UserRecall;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The nightly recall job (BATCH): for each user with an interest profile, the top {@code k} items
 * by interest match × quality × freshness, without items the user consumed or was pushed in the
 * last {@code pushedDays} days, never two of one category in a row.
 *
 * <pre>
 * materials ─ per tag, each subtask's best perTag ─ broadcast ─┐
 * profiles, consumption, pushes ─ keyBy uid ──────────────── recall ─ user_recall
 * </pre>
 *
 * Users are scored against their own tags' candidates only: never a users × items product.
 */
public final class RecallJob {
    public static final String NAME = "pushline-recall";

    static final MapStateDescriptor<String, TagCandidates> CANDIDATES =
            new MapStateDescriptor<>(
                    "recall-candidates", Types.STRING, TypeInformation.of(TagCandidates.class));

    static final TypeInformation<Tuple2<String, Material>> BY_TAG =
            Types.TUPLE(Types.STRING, TypeInformation.of(Material.class));

    private RecallJob() {}

    /**
     * The production run: {@code recall.data} (users.jsonl, history.jsonl, materials.jsonl on any
     * Flink file system) in, HBase {@code user_recall} out; dead letters to push.dlq when {@code
     * kafka.bootstrap-servers} is set, else to the task log.
     */
    public static JobExecutionResult run(StreamExecutionEnvironment env, Configuration options)
            throws Exception {
        String quorum = HBaseTables.requireAddress(options);
        String namespace = options.get(CommonOptions.HBASE_NAMESPACE);
        String day = options.get(RecallOptions.DATE);
        LocalDate date;
        try {
            date = day == null ? LocalDate.now(ZoneOffset.UTC) : LocalDate.parse(day);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "option '" + RecallOptions.DATE.key() + "': expected YYYY-MM-DD");
        }
        try (Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
            HBaseTables.ensure(c, namespace);
        }
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        build(env, options, date)
                .sinkTo(RecallTable.sink(quorum, namespace))
                .uid("sink-user-recall")
                .name("HBase user_recall");
        return env.execute(NAME);
    }

    /**
     * Recall for {@code date} from the files of {@code recall.data}, with {@code recall.k} and
     * {@code recall.pushed-days}; bad lines go to push.dlq (or the task log).
     *
     * @throws IllegalArgumentException naming the option that is wrong
     */
    public static DataStream<UserRecall> build(
            StreamExecutionEnvironment env, Configuration options, LocalDate date)
            throws java.io.IOException {
        String data = OptionsParser.require(options, RecallOptions.DATA);
        int k = options.get(RecallOptions.K);
        int days = options.get(RecallOptions.PUSHED_DAYS);
        if (k < 1 || days < 0) {
            throw new IllegalArgumentException(
                    "options 'recall.k' (at least 1) and 'recall.pushed-days' (0 or more)");
        }
        for (String f : new String[] {"users.jsonl", "history.jsonl", "materials.jsonl"}) {
            Path p = new Path(data, f);
            if (!p.getFileSystem().exists(p)) {
                throw new IllegalArgumentException(
                        "option '" + RecallOptions.DATA.key() + "': no " + p);
            }
        }
        SingleOutputStreamOperator<RecallInput> profiles =
                read(
                        env,
                        new Path(data, "users.jsonl"),
                        RecallLines::profile,
                        RecallInput.class,
                        "profiles");
        SingleOutputStreamOperator<RecallInput> history =
                read(
                        env,
                        new Path(data, "history.jsonl"),
                        RecallLines::history,
                        RecallInput.class,
                        "history");
        SingleOutputStreamOperator<Material> materials =
                read(
                        env,
                        new Path(data, "materials.jsonl"),
                        RecallLines::material,
                        Material.class,
                        "materials");
        DataStream<DeadLetter> dead =
                profiles.getSideOutput(DispatchTags.DEAD_LETTERS)
                        .union(
                                history.getSideOutput(DispatchTags.DEAD_LETTERS),
                                materials.getSideOutput(DispatchTags.DEAD_LETTERS));
        FileLines.deadLetters(dead, options, "rejected recall input");
        return build(profiles.union(history), materials, date, k, days, 50);
    }

    private static <T> SingleOutputStreamOperator<T> read(
            StreamExecutionEnvironment env,
            Path file,
            FileLines.Parse<T> parse,
            Class<T> type,
            String name) {
        return env.fromData(java.util.List.of(file.toString()), Types.STRING)
                .name(name + " file")
                .process(new FileLines<>("recall", parse), TypeInformation.of(type))
                .uid("read-" + name)
                .name("Read " + name);
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        RecallOptions.accepted(),
                        o -> {
                            OptionsParser.require(o, RecallOptions.DATA);
                            OptionsParser.require(o, CommonOptions.HBASE_ZK_QUORUM);
                        });
        run(StreamExecutionEnvironment.getExecutionEnvironment(), options);
    }

    public static DataStream<UserRecall> build(
            DataStream<RecallInput> users,
            DataStream<Material> materials,
            LocalDate date,
            int k,
            int pushedDays,
            int perTag) {
        BroadcastStream<TagCandidates> candidates =
                materials
                        .flatMap(
                                (Material m,
                                        org.apache.flink.util.Collector<Tuple2<String, Material>>
                                                out) -> {
                                    for (String t : m.tags) {
                                        out.collect(Tuple2.of(t, m));
                                    }
                                })
                        .returns(BY_TAG)
                        .uid("materials-by-tag")
                        .name("Materials by tag")
                        // each subtask's best per tag first: the catalogue never crosses the
                        // network
                        .fullWindowPartition()
                        .mapPartition(new LocalBest(date, perTag))
                        .returns(TypeInformation.of(TagCandidates.class))
                        .uid("best-per-tag")
                        .name("Best items per tag (local)")
                        // no keyBy(tag): in BATCH every keyed input is sorted with a share of
                        // managed memory, and a second sort would halve the users' share; the few
                        // local bests are merged where they arrive, in RecallFunction
                        .broadcast(CANDIDATES);
        return users.keyBy(u -> u.uid)
                .connect(candidates)
                .process(new RecallFunction(date, k, pushedDays, perTag))
                .uid("recall")
                .name("Recall per user");
    }
}
