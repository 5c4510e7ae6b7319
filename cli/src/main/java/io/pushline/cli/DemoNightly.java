package io.pushline.cli;

import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.gen.NightlyData;
import io.pushline.recall.RecallOptions;
import io.pushline.schedule.NightlyJob;
import io.pushline.schedule.ScheduleFeedJob;
import io.pushline.schedule.ScheduleOptions;
import io.pushline.schedule.ScheduleTable;
import io.pushline.schema.Json;
import io.pushline.sendtime.SendTimeOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The demo's night: generated users with habits and interests (their devices bound with the rest),
 * the nightly job (send time, recall, personal slots for tomorrow) and the schedule feed, which
 * puts every slot of tomorrow on push.requests at once; the dispatch job then holds each until its
 * slot.
 */
final class DemoNightly {
    static final long SEED = 7;
    static final int DAYS = 14;

    final Path dir;
    final int users;
    final LocalDate date = LocalDate.now(ZoneOffset.UTC).plusDays(1);
    long sendTimes;
    long recalls;
    long slots;
    long firstWithin30;
    long lastWithin30;

    DemoNightly(Path dir, int users) {
        this.dir = dir;
        this.users = users;
    }

    /**
     * Writes the generated files; returns the users' device binds (key, value) for device.events.
     */
    List<String[]> generate() throws Exception {
        new NightlyData(SEED, date, DAYS).write(dir, users);
        List<String[]> binds = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("devices.jsonl"))) {
            binds.add(new String[] {Json.read(line, Map.class).get("deviceId").toString(), line});
        }
        return binds;
    }

    /** The nightly job into HBase, then the counts and the predictor's accuracy read back. */
    void runNightly(LocalStack stack) throws Exception {
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(SendTimeOptions.ACTIVITY.key(), dir.resolve("activity.jsonl").toString());
        opts.put(SendTimeOptions.PREDICTOR.key(), "histogram");
        opts.put(RecallOptions.DATA.key(), dir.toString());
        opts.put(ScheduleOptions.DATE.key(), date.toString());
        // the demo decides tomorrow now, by event time: a wall-clock deadline would expire
        // early slots of zones east of UTC when it runs late in the UTC day
        opts.put(ScheduleOptions.DEADLINE.key(), "0 s");
        NightlyJob.run(env(stack), Configuration.fromMap(opts));

        Map<String, int[]> truth = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("truth.jsonl"), StandardCharsets.UTF_8)) {
            Map<?, ?> t = Json.read(line, Map.class);
            truth.put(
                    t.get("uid").toString(),
                    new int[] {
                        minutes(t.get("wake").toString()), minutes(t.get("sleep").toString())
                    });
        }
        try (Table t = stack.hbase().connection().getTable(HBaseTables.userSendTime("pushline"));
                ResultScanner rows = t.getScanner(new Scan())) {
            for (Result r : rows) {
                int[] habit = truth.get(Bytes.toString(r.getRow()));
                sendTimes++;
                if (Math.abs(minutes(col(r, "first")) - habit[0]) <= 30) {
                    firstWithin30++;
                }
                if (Math.abs(minutes(col(r, "last")) - habit[1]) <= 30) {
                    lastWithin30++;
                }
            }
        }
        recalls = count(stack, HBaseTables.USER_RECALL);
        slots = count(stack, ScheduleTable.NAME);
    }

    /** Tomorrow's slots (and the days around it, for zones east and west of UTC), all at once. */
    void feed(LocalStack stack) throws Exception {
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(ScheduleOptions.FEED_FROM.key(), date.minusDays(1).toString());
        opts.put(ScheduleOptions.FEED_UNTIL.key(), date.plusDays(2).toString());
        opts.put(ScheduleOptions.FEED_FOLLOW_CLOCK.key(), "false");
        opts.put(ScheduleOptions.FEED_TRANSACTIONAL_ID_PREFIX.key(), "demo-feed");
        StreamExecutionEnvironment env = env(stack);
        ScheduleFeedJob.wire(env, Configuration.fromMap(opts));
        env.execute(ScheduleFeedJob.NAME);
    }

    private static long count(LocalStack stack, String table) throws Exception {
        long n = 0;
        try (Table t =
                        stack.hbase()
                                .connection()
                                .getTable(
                                        org.apache.hadoop.hbase.TableName.valueOf(
                                                "pushline", table));
                ResultScanner rows = t.getScanner(new Scan())) {
            while (rows.next() != null) {
                n++;
            }
        }
        return n;
    }

    private static StreamExecutionEnvironment env(LocalStack stack) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        return env;
    }

    private static String col(Result r, String name) {
        return Bytes.toString(r.getValue(HBaseTables.FAMILY, Bytes.toBytes(name)));
    }

    private static int minutes(String hhmm) {
        return Integer.parseInt(hhmm.substring(0, 2)) * 60 + Integer.parseInt(hhmm.substring(3));
    }
}
