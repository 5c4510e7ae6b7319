package io.pushline.dispatch;

import static io.pushline.dispatch.DispatchKafkaITCase.kv;
import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.local.gen.NightlyData;
import io.pushline.recall.RecallOptions;
import io.pushline.schedule.NightlyJob;
import io.pushline.schedule.ScheduleFeedJob;
import io.pushline.schedule.ScheduleOptions;
import io.pushline.schedule.ScheduleTable;
import io.pushline.schedule.SlotPlanner;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Target;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.recall.RecalledItem;
import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.sendtime.SendTimeOptions;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nightly chain end to end on the real embedded HBase, Kafka and Flink (parallelism 2):
 * generated users → nightly job (send time, recall, slots into push_schedule) → schedule feed
 * (push_schedule → push.requests, the whole day at once) → dispatch job, which holds each slot in
 * its scheduler until the watermark reaches it and decides it there, in event-time order with
 * everything else. Timing is checked in event time only: every personal push is decided and sent
 * stamped with its slot, and reminders placed around some slots show the gate saw them in slot
 * order (a minimum interval of 10 minutes).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class PersonalScheduleITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    // far ahead, so no deadline passes by the wall clock while the test runs
    static final LocalDate D = LocalDate.of(2030, 1, 15);
    static final String NS = "itnightly";
    static final int USERS = 300;
    static final long MIN_INTERVAL = 10 * 60_000L;

    @TempDir static Path dir;

    static Map<String, SendTime> sendTimes = new TreeMap<>();
    static Map<String, UserRecall> recalls = new TreeMap<>();
    static List<PushRequest> scheduled = new ArrayList<>();
    static List<PushRequest> reminders = new ArrayList<>();
    static List<Decision> decisions = new ArrayList<>();
    static List<SendRecord> sends = new ArrayList<>();
    // what the dispatch run saw, for the failure message
    static String seen;

    @BeforeAll
    static void run() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        stack.kafka().recreateTopics(Topics.dispatchTopics(), 2);
        new NightlyData(11, D, 14).write(dir, USERS);
        Path rules = dir.resolve("rules.yaml");
        Files.writeString(rules, "minInterval: {period: 10m, exemptLevel: 3}\n");

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), NS);
        opts.put(SendTimeOptions.ACTIVITY.key(), dir.resolve("activity.jsonl").toString());
        opts.put(RecallOptions.DATA.key(), dir.toString());
        opts.put(ScheduleOptions.DATE.key(), D.toString());
        NightlyJob.run(env(stack), Configuration.fromMap(opts));
        readNightlyTables(stack);
        addReminders(stack);

        opts.put(ScheduleOptions.FEED_FROM.key(), D.minusDays(1).toString());
        opts.put(ScheduleOptions.FEED_UNTIL.key(), D.plusDays(2).toString());
        opts.put(ScheduleOptions.FEED_FOLLOW_CLOCK.key(), "false");
        opts.put(ScheduleOptions.FEED_TRANSACTIONAL_ID_PREFIX.key(), "it-feed");
        StreamExecutionEnvironment feed = env(stack);
        ScheduleFeedJob.wire(feed, Configuration.fromMap(opts));
        feed.execute(ScheduleFeedJob.NAME);
        // the feed's last transaction is committed when it ends; wait until a read_committed
        // reader sees all of it, so the bounded dispatch run below starts from the whole day
        int expected = scheduled.size() + reminders.size();
        for (int i = 0;
                i < 60 && KafkaTopics.readAll(kafka, Topics.PUSH_REQUESTS).size() < expected;
                i++) {
            KafkaTopics.waitForMore(kafka, Topics.PUSH_REQUESTS, java.time.Duration.ofSeconds(1));
        }

        List<String[]> binds = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("devices.jsonl"))) {
            binds.add(kv(Json.read(line, Map.class).get("deviceId").toString(), line));
        }
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, binds);

        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        // the day is in 2030: no wall-clock horizon for a simulated day
        opts.put(DispatchOptions.MAX_FUTURE.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-personal");
        opts.put(DispatchOptions.GATE_RULES.key(), rules.toString());
        DispatchJob.start(env(stack), Configuration.fromMap(opts))
                .getJobExecutionResult()
                .get(5, TimeUnit.MINUTES);

        KafkaTopics.readAllAfterJobs(kafka, Topics.DECISIONS)
                .forEach(s -> decisions.add(Json.read(s, Decision.class)));
        List<String> dlq = KafkaTopics.readAllAfterJobs(kafka, Topics.DLQ);
        seen =
                "requests readable "
                        + KafkaTopics.readAllAfterJobs(kafka, Topics.PUSH_REQUESTS).size()
                        + " of "
                        + expected
                        + ", decisions "
                        + decisions.size()
                        + ", dead letters "
                        + dlq.size()
                        + (dlq.isEmpty() ? "" : " e.g. " + dlq.get(0));
        for (Vendor v : Vendor.values()) {
            KafkaTopics.readAllAfterJobs(kafka, v.topic())
                    .forEach(s -> sends.add(Json.read(s, SendRecord.class)));
        }
    }

    @Test
    void theNightlyJobPlansEachUsersSlotsFromItsSendTimeAndRecall() {
        assertThat(recalls).hasSize(USERS);
        assertThat(sendTimes.size()).isGreaterThan(USERS * 9 / 10);
        SlotPlanner planner =
                new SlotPlanner(
                        D, ZoneId.of("Asia/Shanghai"), Duration.ofMinutes(30), Duration.ofHours(1));
        List<PushRequest> expected = new ArrayList<>();
        recalls.forEach(
                (uid, r) -> {
                    if (sendTimes.containsKey(uid)) {
                        expected.addAll(planner.plan(sendTimes.get(uid), r));
                    }
                });
        assertThat(expected.size()).isGreaterThan(USERS * 3);
        assertThat(byMsgId(scheduled)).isEqualTo(byMsgId(expected));
        for (PushRequest p : scheduled) {
            String uid = p.target.uids.get(0);
            LocalTime local =
                    Instant.ofEpochMilli(p.at).atZone(ZoneId.of(recalls.get(uid).tz)).toLocalTime();
            assertThat(local)
                    .as(p.msgId)
                    .isBetween(
                            LocalTime.parse(sendTimes.get(uid).first),
                            LocalTime.parse(sendTimes.get(uid).last));
        }
    }

    @Test
    void everySlotIsDecidedOnceAtItsSlotTimeAsTheGateSeesItInSlotOrder() {
        List<PushRequest> all = new ArrayList<>(scheduled);
        all.addAll(reminders);
        Map<String, Decision> byId = new HashMap<>();
        for (Decision d : decisions) {
            assertThat(byId.put(d.msgId, d)).as("one decision for " + d.msgId).isNull();
        }
        assertThat(byId).as(seen).hasSize(all.size());
        Map<String, String> expected = minIntervalModel(all);
        for (PushRequest p : all) {
            Decision d = byId.get(p.msgId);
            assertThat(d.ts).as(p.msgId).isEqualTo(p.at);
            assertThat(d.uid).isEqualTo(p.target.uids.get(0));
            assertThat(d.decision + " " + d.reason).as(p.msgId).isEqualTo(expected.get(p.msgId));
        }
        // the reminders around slot 0 and 1 change what the gate does with them
        for (PushRequest r : reminders) {
            String uid = r.target.uids.get(0);
            String slot0 = "personal-" + D + "-" + uid + "-0";
            String slot1 = "personal-" + D + "-" + uid + "-1";
            assertThat(byId.get(slot0).decision).isEqualTo("PASS");
            if (r.msgId.startsWith("remind-a")) {
                assertThat(byId.get(r.msgId).reason).isEqualTo("min_interval");
            } else {
                assertThat(byId.get(r.msgId).decision).isEqualTo("PASS");
                assertThat(byId.get(slot1).reason).isEqualTo("min_interval");
            }
        }
    }

    @Test
    void passedSlotsReachTheVendorTopicsOnceStampedWithTheirSlotAndItem() {
        Map<String, PushRequest> byId = byMsgId(scheduled);
        reminders.forEach(r -> byId.put(r.msgId, r));
        List<String> passed =
                decisions.stream()
                        .filter(Decision::isPass)
                        .map(d -> d.msgId)
                        .sorted()
                        .collect(Collectors.toList());
        assertThat(sends.stream().map(s -> s.msgId).sorted().collect(Collectors.toList()))
                .isEqualTo(passed);
        for (SendRecord s : sends) {
            PushRequest p = byId.get(s.msgId);
            assertThat(s.ts).isEqualTo(p.at);
            assertThat(s.title).isEqualTo(p.title);
            if (s.msgType.equals("personal")) {
                assertThat(s.deadline).isEqualTo(p.at + 3_600_000L);
                int slot = Integer.parseInt(s.msgId.substring(s.msgId.lastIndexOf('-') + 1));
                RecalledItem item = recalls.get(s.uid).items[slot];
                assertThat(s.title).isEqualTo(item.title);
                assertThat(s.body).isEqualTo(item.body);
            }
        }
        assertThat(sends.size()).isGreaterThan(USERS * 3);
    }

    /** min_interval as the contract states it, per device (one device per user here). */
    private static Map<String, String> minIntervalModel(List<PushRequest> all) {
        Map<String, List<PushRequest>> byUid = new HashMap<>();
        all.forEach(
                p -> byUid.computeIfAbsent(p.target.uids.get(0), u -> new ArrayList<>()).add(p));
        Map<String, String> out = new HashMap<>();
        for (List<PushRequest> ps : byUid.values()) {
            ps.sort(Comparator.comparingLong((PushRequest p) -> p.at).thenComparing(p -> p.msgId));
            long last = Long.MIN_VALUE;
            for (PushRequest p : ps) {
                if (last != Long.MIN_VALUE && p.at - last < MIN_INTERVAL) {
                    out.put(p.msgId, "DROP min_interval");
                } else {
                    out.put(p.msgId, "PASS null");
                    last = p.at;
                }
            }
        }
        return out;
    }

    private static void readNightlyTables(LocalStack stack) throws Exception {
        try (Connection c = stack.hbase().newConnection()) {
            try (Table t = c.getTable(HBaseTables.userSendTime(NS));
                    ResultScanner rows = t.getScanner(new Scan())) {
                for (Result r : rows) {
                    String uid = Bytes.toString(r.getRow());
                    sendTimes.put(uid, SendTime.of(uid, col(r, "first"), col(r, "last")));
                }
            }
            try (Table t = c.getTable(HBaseTables.userRecall(NS));
                    ResultScanner rows = t.getScanner(new Scan())) {
                for (Result r : rows) {
                    UserRecall u = new UserRecall();
                    String row = Bytes.toString(r.getRow());
                    u.uid = row.substring(0, row.indexOf('\0'));
                    u.date = row.substring(row.indexOf('\0') + 1);
                    u.tz = col(r, "tz");
                    u.items = Json.read(col(r, "items"), RecalledItem[].class);
                    recalls.put(u.uid, u);
                }
            }
            try (Table t = c.getTable(ScheduleTable.table(NS));
                    ResultScanner rows = t.getScanner(new Scan())) {
                for (Result r : rows) {
                    scheduled.add(Json.read(col(r, "r"), PushRequest.class));
                }
            }
        }
    }

    /**
     * For ten users with slots 0 and 1 at least 30 minutes apart: a reminder 5 minutes after slot 0
     * (dropped: too soon after it) and one 5 minutes before slot 1 (passes, and slot 1 is then
     * dropped), written to push_schedule like any scheduled request.
     */
    private static void addReminders(LocalStack stack) throws Exception {
        Map<String, List<PushRequest>> byUid = new TreeMap<>();
        scheduled.forEach(
                p -> byUid.computeIfAbsent(p.target.uids.get(0), u -> new ArrayList<>()).add(p));
        for (List<PushRequest> ps : byUid.values()) {
            ps.sort(Comparator.comparing(p -> p.msgId));
            if (ps.size() >= 2 && ps.get(1).at - ps.get(0).at >= 30 * 60_000L) {
                String uid = ps.get(0).target.uids.get(0);
                reminders.add(reminder("remind-a-" + uid, uid, ps.get(0).at + 5 * 60_000L));
                reminders.add(reminder("remind-b-" + uid, uid, ps.get(1).at - 5 * 60_000L));
            }
            if (reminders.size() == 20) {
                break;
            }
        }
        assertThat(reminders).hasSize(20);
        try (Connection c = stack.hbase().newConnection();
                BufferedMutator m = c.getBufferedMutator(ScheduleTable.table(NS))) {
            for (PushRequest r : reminders) {
                m.mutate(ScheduleTable.put(r));
            }
        }
    }

    private static PushRequest reminder(String msgId, String uid, long at) {
        PushRequest p = new PushRequest();
        p.msgId = msgId;
        p.msgType = "reminder";
        p.title = "Reminder " + uid;
        p.body = "b";
        p.at = at;
        p.ts = at - 30 * 60_000L;
        p.target = Target.ofUids(List.of(uid));
        return p;
    }

    private static Map<String, PushRequest> byMsgId(List<PushRequest> ps) {
        Map<String, PushRequest> out = new TreeMap<>();
        ps.forEach(p -> out.put(p.msgId, p));
        return out;
    }

    private static String col(Result r, String name) {
        byte[] v = r.getValue(HBaseTables.FAMILY, Bytes.toBytes(name));
        return v == null ? null : Bytes.toString(v);
    }

    private static StreamExecutionEnvironment env(LocalStack stack) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        return env;
    }
}
