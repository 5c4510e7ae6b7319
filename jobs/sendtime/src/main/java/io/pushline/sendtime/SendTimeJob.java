package io.pushline.sendtime;

import io.pushline.common.CommonOptions;
import io.pushline.common.FileLines;
import io.pushline.common.HBasePutSink;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.common.KafkaLines;
import io.pushline.common.OptionsParser;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.schema.sendtime.UserDays;
import io.pushline.sendtime.predict.HistogramPredictor;
import io.pushline.sendtime.predict.SendTimePredictor;
import io.pushline.sendtime.predict.SendTimeRules;
import io.pushline.udf.RulesException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The nightly send-time job (BATCH, docs/send-time.md): activity events in, each user's predicted
 * first and last push time of the run's date out.
 *
 * <pre>
 * activity ─ place on local day and minute ─ merge per uid (earliest, latest per day) ─ predict
 * </pre>
 *
 * Only the looked-at days travel: one small array pair per user after the merge, never the events.
 */
public final class SendTimeJob {
    public static final String NAME = "pushline-sendtime";

    private SendTimeJob() {}

    /** Which predictor turns a user's days into times. */
    public enum Predictor {
        /** docs/send-time.md's window rules (the contract; the default). */
        RULES,
        /** {@link HistogramPredictor}: decay-weighted median of the daily first and last minute. */
        HISTOGRAM;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static DataStream<SendTime> build(
            DataStream<ActivityEvent> activity, SendTimeRules rules, LocalDate date) {
        return build(activity, rules, date, Predictor.RULES);
    }

    public static DataStream<SendTime> build(
            DataStream<ActivityEvent> activity,
            SendTimeRules rules,
            LocalDate date,
            Predictor predictor) {
        return activity.flatMap(new PlaceOnLookedAtDay(rules, date))
                .uid("place-activity")
                .name("Place on local day and minute")
                .keyBy(u -> u.uid)
                .reduce(UserDays::merge)
                .uid("merge-days")
                .name("Merge per uid")
                .map(new PredictSendTime(rules, predictor))
                .uid("predict-send-time")
                .name("Predict first and last");
    }

    /**
     * The production run: activity files ({@code sendtime.activity}) in, {@code user_sendtime} in
     * HBase out; dead letters to push.dlq when {@code kafka.bootstrap-servers} is set, else to the
     * task log. Returns when the job has finished.
     */
    public static JobExecutionResult run(StreamExecutionEnvironment env, Configuration options)
            throws Exception {
        String quorum = HBaseTables.requireAddress(options);
        String namespace = options.get(CommonOptions.HBASE_NAMESPACE);
        Settings settings = Settings.from(options, options.get(SendTimeOptions.DATE));
        try (Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum))) {
            HBaseTables.ensure(c, namespace);
        }
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        SingleOutputStreamOperator<ActivityEvent> activity = readActivity(env, options, settings);
        build(activity, settings.rules, settings.date, settings.predictor)
                .sinkTo(settings.sink(quorum, namespace))
                .uid("sink-user-sendtime")
                .name("HBase user_sendtime");
        FileLines.deadLetters(
                activity.getSideOutput(DispatchTags.DEAD_LETTERS), options, "rejected activity");
        return env.execute(NAME);
    }

    /**
     * The activity of the settings' topic (bounded: the look-back up to the end offsets at start)
     * or files, parsed; bad records on {@link DispatchTags#DEAD_LETTERS}.
     */
    public static SingleOutputStreamOperator<ActivityEvent> readActivity(
            StreamExecutionEnvironment env, Configuration options, Settings settings) {
        if (settings.topic == null) {
            return readActivity(env, settings.files);
        }
        long from =
                settings.date
                        .minusDays(settings.rules.lookbackDays + 1L)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant()
                        .toEpochMilli();
        return env.fromSource(
                        KafkaIO.linesSince(
                                options, settings.topic, NAME + "-" + settings.topic, from),
                        WatermarkStrategy.noWatermarks(),
                        "Kafka activity")
                .uid("source-kafka-activity")
                .process(
                        new KafkaLines<>("activity", ActivityParser::parse),
                        TypeInformation.of(ActivityEvent.class))
                .uid("read-activity")
                .name("Read activity");
    }

    /** The activity files, read line by line; bad lines on {@link DispatchTags#DEAD_LETTERS}. */
    public static SingleOutputStreamOperator<ActivityEvent> readActivity(
            StreamExecutionEnvironment env, List<String> files) {
        return env.fromData(files, Types.STRING)
                .name("Activity files")
                .rebalance()
                .process(
                        new FileLines<>("activity", ActivityParser::parse),
                        TypeInformation.of(ActivityEvent.class))
                .uid("read-activity")
                .name("Read activity");
    }

    /** A production run's checked settings: rules, date, predictor and the activity files. */
    public static final class Settings {
        public final SendTimeRules rules;
        public final LocalDate date;
        public final Predictor predictor;
        public final List<String> files;

        /** The activity topic, or null when reading {@link #files}. */
        public final String topic;

        private Settings(
                SendTimeRules rules,
                LocalDate date,
                Predictor predictor,
                List<String> files,
                String topic) {
            this.rules = rules;
            this.date = date;
            this.predictor = predictor;
            this.files = files;
            this.topic = topic;
        }

        /**
         * From {@code sendtime.*}, for {@code day} (YYYY-MM-DD; null: today in the rules' zone).
         *
         * @throws IllegalArgumentException naming the option that is wrong
         */
        public static Settings from(Configuration options, String day) throws IOException {
            SendTimeRules rules = SendTimeRules.defaults();
            String rulesFile = options.get(SendTimeOptions.RULES);
            if (rulesFile != null && !rulesFile.isBlank()) {
                String text;
                try {
                    text = Files.readString(Paths.get(rulesFile), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw bad(SendTimeOptions.RULES, "cannot read " + rulesFile + ": " + e);
                }
                try {
                    rules = SendTimeRules.parse(text);
                } catch (RulesException e) {
                    throw bad(SendTimeOptions.RULES, e.getMessage());
                }
            }
            LocalDate date;
            try {
                date = day == null ? LocalDate.now(rules.timezone) : LocalDate.parse(day);
            } catch (DateTimeParseException e) {
                throw bad(SendTimeOptions.DATE, "expected YYYY-MM-DD, got '" + day + "'");
            }
            Predictor predictor = options.get(SendTimeOptions.PREDICTOR);
            String topic = options.get(SendTimeOptions.ACTIVITY_TOPIC);
            if (topic != null && !topic.isBlank()) {
                OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP);
                return new Settings(rules, date, predictor, List.of(), topic);
            }
            List<String> files = files(OptionsParser.require(options, SendTimeOptions.ACTIVITY));
            if (files.isEmpty()) {
                throw bad(SendTimeOptions.ACTIVITY, "no files to read");
            }
            return new Settings(rules, date, predictor, files, null);
        }

        public HBasePutSink<SendTime> sink(String quorum, String namespace) {
            return SendTimeTable.sink(quorum, namespace, date.toString(), predictor.toString());
        }
    }

    /** The file, or every file directly in the folder. */
    static List<String> files(String location) throws IOException {
        Path path = new Path(location);
        FileSystem fs = path.getFileSystem();
        if (!fs.exists(path)) {
            throw bad(SendTimeOptions.ACTIVITY, "no such file or folder " + location);
        }
        List<String> out = new ArrayList<>();
        if (fs.getFileStatus(path).isDir()) {
            for (FileStatus f : fs.listStatus(path)) {
                if (!f.isDir()) {
                    out.add(f.getPath().toString());
                }
            }
        } else {
            out.add(path.toString());
        }
        Collections.sort(out);
        return out;
    }

    private static IllegalArgumentException bad(ConfigOption<?> option, String why) {
        return new IllegalArgumentException("option '" + option.key() + "': " + why);
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        SendTimeOptions.accepted(),
                        o -> {
                            if (o.get(SendTimeOptions.ACTIVITY_TOPIC) == null) {
                                OptionsParser.require(o, SendTimeOptions.ACTIVITY);
                            }
                            OptionsParser.require(o, CommonOptions.HBASE_ZK_QUORUM);
                        });
        run(StreamExecutionEnvironment.getExecutionEnvironment(), options);
    }

    /** An event on its looked-at day, or nothing when its local date is not one of them. */
    static final class PlaceOnLookedAtDay implements FlatMapFunction<ActivityEvent, UserDays> {
        private static final long serialVersionUID = 1L;
        private final SendTimeRules rules;
        private final LocalDate date;

        PlaceOnLookedAtDay(SendTimeRules rules, LocalDate date) {
            this.rules = rules;
            this.date = date;
        }

        @Override
        public void flatMap(ActivityEvent e, Collector<UserDays> out) {
            UserDays u = SendTimePredictor.place(e, rules, date);
            if (u != null) {
                out.collect(u);
            }
        }
    }

    static final class PredictSendTime implements MapFunction<UserDays, SendTime> {
        private static final long serialVersionUID = 1L;
        private final SendTimeRules rules;
        private final Predictor predictor;

        PredictSendTime(SendTimeRules rules, Predictor predictor) {
            this.rules = rules;
            this.predictor = predictor;
        }

        @Override
        public SendTime map(UserDays u) {
            return predictor == Predictor.HISTOGRAM
                    ? HistogramPredictor.predict(u)
                    : SendTimePredictor.predict(u, rules);
        }
    }
}
