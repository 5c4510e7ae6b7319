package io.pushline.schedule;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Topics;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The schedule feed (streaming): every minute, the personal pushes of the minute {@code
 * schedule.lead} ahead, from {@code push_schedule} to {@code push.requests} (exactly once), where
 * the dispatch job holds each until its slot.
 *
 * <pre>
 * minute clock (1) ─ load minute from HBase (1) ─ push.requests
 * </pre>
 */
public final class ScheduleFeedJob {
    public static final String NAME = "pushline-schedule-feed";

    private ScheduleFeedJob() {}

    /** Clock → loader: the requests of each minute's slots, for {@link #sinkTo}. */
    public static DataStream<PushRequest> build(
            StreamExecutionEnvironment env, MinuteClock clock, LoadMinute loader) {
        return env.fromSource(clock, WatermarkStrategy.noWatermarks(), "Slot minutes")
                .uid("source-minutes")
                .setParallelism(1)
                .flatMap(loader)
                .uid("load-minute")
                .name("Load the minute's slots")
                .setParallelism(1);
    }

    public static void sinkTo(DataStream<PushRequest> requests, Sink<PushRequest> sink) {
        requests.sinkTo(sink).uid("sink-push-requests").name("push.requests");
    }

    /** The clock from {@code schedule.feed-*} and {@code schedule.lead}. */
    public static MinuteClock clock(Configuration options) {
        Duration lead = options.get(ScheduleOptions.LEAD);
        if (lead.isNegative()) {
            throw new IllegalArgumentException("option 'schedule.lead' must not be negative");
        }
        String from = options.get(ScheduleOptions.FEED_FROM);
        long fromMinute =
                from == null
                        ? (System.currentTimeMillis() + lead.toMillis()) / 60_000L
                        : minute(ScheduleOptions.FEED_FROM, from);
        String until = options.get(ScheduleOptions.FEED_UNTIL);
        long untilMinute =
                until == null ? Long.MAX_VALUE : minute(ScheduleOptions.FEED_UNTIL, until);
        boolean follow = options.get(ScheduleOptions.FEED_FOLLOW_CLOCK);
        if (!follow && untilMinute == Long.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "option 'schedule.feed-until' is needed when schedule.feed-follow-clock is"
                            + " false (it would load forever)");
        }
        // backfills read an hour per scan: the same rows, 60 times fewer round trips
        return new MinuteClock(fromMinute, untilMinute, lead.toMillis(), follow, follow ? 1 : 60);
    }

    /** An ISO instant or a date (its UTC midnight), as an epoch minute. */
    static long minute(ConfigOption<String> option, String value) {
        try {
            Instant t =
                    value.length() == 10
                            ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
                            : Instant.parse(value);
            return Math.floorDiv(t.toEpochMilli(), 60_000L);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "option '"
                            + option.key()
                            + "': expected an ISO instant (2026-11-23T06:00:00Z) or a date, got '"
                            + value
                            + "'");
        }
    }

    public static void wire(StreamExecutionEnvironment env, Configuration options) {
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        pipeline.set(PipelineOptions.NAME, NAME);
        env.configure(pipeline);
        String quorum = HBaseTables.requireAddress(options);
        MinuteClock clock = clock(options);
        sinkTo(
                build(
                        env,
                        clock,
                        new LoadMinute(
                                quorum,
                                options.get(CommonOptions.HBASE_NAMESPACE),
                                clock.step(),
                                clock.until())),
                KafkaIO.jsonSink(
                        options,
                        options.get(ScheduleOptions.FEED_TRANSACTIONAL_ID_PREFIX),
                        "schedule",
                        Topics.PUSH_REQUESTS,
                        p -> p.target.uids.get(0)));
    }

    public static void main(String[] args) throws Exception {
        Configuration options =
                OptionsParser.forMain(
                        NAME,
                        args,
                        ScheduleOptions.feed(),
                        o -> {
                            OptionsParser.require(o, CommonOptions.KAFKA_BOOTSTRAP);
                            OptionsParser.require(o, CommonOptions.HBASE_ZK_QUORUM);
                            clock(o);
                        });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        wire(env, options);
        env.execute(NAME);
    }
}
