package io.pushline.segments;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Topics;
import io.pushline.schema.segments.BuiltSegment;
import io.pushline.schema.segments.MemberRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.OutputTag;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The segment build, a BATCH job: user-package files and membership changes in, one new version per
 * touched segment in the HBase segment store out (ids from the uid dictionary, assigned on first
 * sight). Rows that cannot be read are dead letters on {@code push.dlq}, counted by reason.
 *
 * <pre>
 * package files ─ read ─┐
 *                       ├─ check ─ assign ids (dictionary, bulk) ─ build (segment) ─ store
 * segment.changes ──────┘    └─ dead letters ─ push.dlq
 * </pre>
 */
public final class SegmentsJob {
    public static final String NAME = "pushline-segments";
    static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));
    static final int ASSIGN_BATCH = 10_000;

    private SegmentsJob() {}

    /** The topology's outputs. */
    public record Streams(DataStream<BuiltSegment> built, DataStream<DeadLetter> deadLetters) {}

    /** Wires the build from rows (files and changes together) to the store in {@code namespace}. */
    public static Streams build(
            DataStream<MemberRow> rows, String quorum, String namespace, int cacheSize) {
        SingleOutputStreamOperator<MemberRow> checked =
                rows.process(new SplitRows(DEAD_LETTERS)).uid("check-rows").name("Check rows");
        DataStream<MemberRow> withIds =
                checked.fullWindowPartition()
                        .mapPartition(new AssignIds(quorum, namespace, ASSIGN_BATCH, cacheSize))
                        .uid("assign-ids")
                        .name("Assign ids");
        DataStream<BuiltSegment> built =
                withIds.keyBy(r -> r.segment)
                        .process(new BuildSegment(quorum, namespace))
                        .uid("build-segments")
                        .name("Build segments");
        return new Streams(built, checked.getSideOutput(DEAD_LETTERS));
    }

    /** One line per package file, {@code segment TAB path}, as {@link ReadPackageFile} takes it. */
    public static DataStream<MemberRow> packageFiles(
            StreamExecutionEnvironment env, Map<String, String> files) {
        List<String> lines = new ArrayList<>();
        files.forEach((segment, path) -> lines.add(segment + "\t" + path));
        return env.fromData(lines, Types.STRING)
                .uid("source-package-files")
                .name("Package files")
                .rebalance()
                .flatMap(new ReadPackageFile())
                .uid("read-package-files")
                .name("Read package files");
    }

    /** What a build did. */
    public record Report(List<BuiltSegment> segments, long rows, Map<String, Long> rejected) {
        public long rejectedRows() {
            return rejected.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * Runs one build and waits for it: package files from {@code segments.files}, changes from
     * {@code segments.changes-topic} since the group's last build, committed when all is written.
     *
     * @throws IllegalArgumentException naming the option when the configuration is bad
     */
    public static Report run(StreamExecutionEnvironment env, Configuration options)
            throws Exception {
        String quorum = HBaseTables.requireAddress(options);
        OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP);
        String namespace = options.get(CommonOptions.HBASE_NAMESPACE);
        Map<String, String> files = PackageFiles.list(options);
        ChangeOffsets offsets = ChangeOffsets.of(options);
        if (options.get(CommonOptions.HBASE_CREATE_TABLES)) {
            try (Connection c =
                    ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
                HBaseTables.ensure(c, namespace);
            }
        }

        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        pipeline.set(PipelineOptions.NAME, NAME);
        env.configure(pipeline);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        DataStream<MemberRow> rows = files.isEmpty() ? null : packageFiles(env, files);
        if (offsets.hasNew()) {
            DataStream<MemberRow> changes =
                    env.fromSource(
                                    KafkaIO.segmentChanges(
                                            options, offsets.topic, offsets.group, offsets.end),
                                    WatermarkStrategy.noWatermarks(),
                                    "Segment changes")
                            .uid("source-segment-changes");
            rows = rows == null ? changes : rows.union(changes);
        }
        if (rows == null) {
            return new Report(List.of(), 0, Map.of());
        }
        Streams s =
                build(rows, quorum, namespace, options.get(CommonOptions.HBASE_DICTIONARY_CACHE));
        s.deadLetters
                .sinkTo(KafkaIO.jsonAtLeastOnceSink(options, d -> Topics.DLQ, d -> null))
                .uid("sink-dead-letters")
                .name("Dead letters");
        List<BuiltSegment> built = new ArrayList<>();
        JobExecutionResult result;
        try (CloseableIterator<BuiltSegment> it = s.built.collectAsync()) {
            result = env.execute(NAME);
            it.forEachRemaining(built::add);
        }
        offsets.commit();
        built.sort((a, b) -> a.name.compareTo(b.name));
        Map<String, Long> rejected = new TreeMap<>();
        for (Map.Entry<String, Object> e : result.getAllAccumulatorResults().entrySet()) {
            if (e.getKey().startsWith(SplitRows.REJECTED_PREFIX)) {
                rejected.put(
                        e.getKey().substring(SplitRows.REJECTED_PREFIX.length()),
                        ((Number) e.getValue()).longValue());
            }
        }
        Object read = result.getAllAccumulatorResults().get(SplitRows.ROWS);
        return new Report(built, read == null ? 0 : ((Number) read).longValue(), rejected);
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        SegmentsOptions.accepted(),
                        o -> {
                            OptionsParser.require(o, CommonOptions.HBASE_ZK_QUORUM);
                            OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP);
                            PackageFiles.list(o);
                        });
        Report r = run(StreamExecutionEnvironment.getExecutionEnvironment(), options);
        for (BuiltSegment b : r.segments) {
            System.out.println(b);
        }
        System.out.printf("%d rows read, %d rejected %s%n", r.rows, r.rejectedRows(), r.rejected);
    }
}
