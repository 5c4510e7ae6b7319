package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.dispatch.DispatchJob;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.receipts.sql.LifecycleLookupAccess;
import io.pushline.receipts.sql.ReceiptCatalog;
import io.pushline.receipts.sql.ReceiptSql;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Receipts end to end on the real embedded Kafka, HBase and Flink (parallelism 2): the dispatch job
 * sends a 41-user campaign (40 devices on huawei and fcm, one uid without a device); vendor
 * receipts come in three phases (delivered, clicked, failed, token_invalid, a duplicate, a bad
 * record; then a late delivery for a minute already written; then one later than the allowed
 * lateness) while the receipts job runs; then the dispatch job runs again and finds the invalid
 * tokens unbound. Asserts the exact metric rows per minute and per day, lifecycle rows, dead
 * letters, and the registry.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ReceiptsITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final String NS = "itreceipts";
    static final long T = 1_767_225_600_000L; // 2026-01-01T00:00Z, a minute boundary
    static final long MIN = 60_000L;
    static final String BAD =
            "{\"type\":\"delivered\",\"msgId\":\"camp\",\"vendor\":\"fcm\",\"ts\":1}";

    static Map<String, MetricRow> minuteRows;
    static Map<String, MetricRow> dayRows;
    static Map<String, Lifecycle> lifecycles;
    static List<DeadLetter> deadLetters;
    static List<String> unbinds;
    static List<Decision> afterDecisions;
    static List<String> registry;

    @BeforeAll
    static void run() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        List<String> topics = new ArrayList<>(Topics.all());
        topics.remove(Topics.RECEIPTS);
        stack.kafka().recreateTopics(topics, 2);
        stack.kafka().recreateTopics(List.of(Topics.RECEIPTS), 1);

        List<String[]> binds = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String vendor = i < 20 ? "huawei" : "fcm";
            binds.add(
                    KafkaTopics.kv(
                            "d" + i,
                            "{\"ts\":"
                                    + (T - 3_600_000)
                                    + ",\"type\":\"bind\",\"deviceId\":\"d"
                                    + i
                                    + "\",\"uid\":\"u"
                                    + i
                                    + "\",\"vendor\":\""
                                    + vendor
                                    + "\",\"token\":\"t"
                                    + i
                                    + "\"}"));
        }
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, binds);
        KafkaTopics.produce(
                kafka,
                Topics.PUSH_REQUESTS,
                List.<String[]>of(KafkaTopics.kv("camp", push("camp", T, 0, 41))));
        dispatch(stack, "it-receipts-1");

        JobClient receipts = startReceipts(stack);
        try {
            // phase 1: a campaign's receipts in minutes 0 and 1, then a click at minute 10
            List<String[]> r = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                r.add(receipt("sent", i, T + 1_000, null));
            }
            for (int i = 0; i < 30; i++) {
                r.add(receipt("delivered", i, T + 2_000 + i * 1_000L, null));
            }
            r.add(receipt("delivered", 0, T + 50_000, null)); // a gateway's retry
            r.add(receipt("failed", 30, T + 40_000, "QUOTA_EXCEEDED"));
            r.add(receipt("failed", 31, T + 40_000, "QUOTA_EXCEEDED"));
            r.add(receipt("failed", 32, T + 40_000, "INTERNAL"));
            r.add(receipt("token_invalid", 33, T + 45_000, null));
            r.add(receipt("token_invalid", 34, T + 45_000, null));
            for (int i = 0; i < 10; i++) {
                r.add(receipt("clicked", i, T + 65_000 + i * 1_000L, null));
            }
            r.add(KafkaTopics.kv("bad", BAD));
            r.add(receipt("clicked", 10, T + 10 * MIN, null));
            KafkaTopics.produce(kafka, Topics.RECEIPTS, r);
            await(() -> minuteRows(stack).size() >= 4, "rows of minutes 0 and 1");

            // phase 2: a late delivery for minute 0 (already written) ...
            KafkaTopics.produce(
                    kafka,
                    Topics.RECEIPTS,
                    List.<String[]>of(receipt("delivered", 35, T + 5_000, null)));
            await(
                    () -> {
                        MetricRow fcm = minuteRows(stack).get(key(0, "fcm"));
                        return fcm != null && fcm.delivered == 11;
                    },
                    () ->
                            "the late delivery in minute 0's row; rows "
                                    + minuteRows(stack)
                                    + ", dead letters "
                                    + KafkaTopics.readAll(kafka, Topics.DLQ)
                                    + ", lifecycle d35 "
                                    + lifecycleOf(stack, "d35"));
            // ... then one at minute 40, which closes minute 10
            KafkaTopics.produce(
                    kafka,
                    Topics.RECEIPTS,
                    List.<String[]>of(receipt("delivered", 36, T + 40 * MIN, null)));
            await(
                    () -> minuteRows(stack).containsKey(key(10 * MIN, "huawei")),
                    "the row of minute 10");

            // phase 3: later than the allowed lateness for minute 0 (but not for the day)
            KafkaTopics.produce(
                    kafka,
                    Topics.RECEIPTS,
                    List.<String[]>of(receipt("delivered", 37, T + 7_000, null)));
            await(
                    () -> KafkaTopics.readAll(kafka, Topics.DLQ).size() >= 2,
                    "the too-late dead letter");

            // phase 4: a click the next day closes day 1
            KafkaTopics.produce(
                    kafka,
                    Topics.RECEIPTS,
                    List.<String[]>of(receipt("clicked", 11, T + 24 * 60 * MIN + MIN, null)));
            await(() -> dayRows(stack).size() >= 3, "the rows of day 1");
            await(
                    () -> KafkaTopics.readAll(kafka, Topics.DEVICE_EVENTS).size() >= 42,
                    "the unbinds");
        } finally {
            receipts.cancel().get(1, TimeUnit.MINUTES);
        }
        minuteRows = minuteRows(stack);
        dayRows = dayRows(stack);
        lifecycles = lifecycles(stack);
        deadLetters =
                KafkaTopics.readAll(kafka, Topics.DLQ).stream()
                        .map(s -> Json.read(s, DeadLetter.class))
                        .collect(Collectors.toList());
        unbinds =
                KafkaTopics.readAll(kafka, Topics.DEVICE_EVENTS).stream()
                        .filter(s -> s.contains("\"unbind\""))
                        .collect(Collectors.toList());

        // the registry takes the unbinds: a push after them finds no device for u33 and u34
        KafkaTopics.produce(
                kafka,
                Topics.PUSH_REQUESTS,
                List.<String[]>of(KafkaTopics.kv("after", push("after", T + 60 * MIN, 33, 36))));
        dispatch(stack, "it-receipts-2");
        afterDecisions =
                KafkaTopics.readAll(kafka, Topics.DECISIONS).stream()
                        .map(s -> Json.read(s, Decision.class))
                        .filter(d -> d.msgId.equals("after"))
                        .collect(Collectors.toList());
        registry = new ArrayList<>();
        try (Table t = stack.hbase().connection().getTable(HBaseTables.devices(NS));
                ResultScanner s = t.getScanner(new Scan())) {
            for (Result res : s) {
                registry.add(new String(res.getRow(), StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void minuteRowsCountEachStepOnceIncludingTheLateDelivery() {
        MetricRow huawei = minuteRows.get(key(0, "huawei"));
        assertThat(counts(huawei)).containsExactly(20L, 0L, 20L, 20L, 0L, 0L, 0L);
        assertLatency(huawei, IntStream.range(0, 20).mapToLong(i -> 2_000 + i * 1_000L));

        MetricRow fcm = minuteRows.get(key(0, "fcm"));
        // delivered: d20-d29 and the late d35; not the duplicate, not the too-late d37
        assertThat(counts(fcm)).containsExactly(20L, 0L, 20L, 11L, 0L, 3L, 2L);
        assertThat(fcm.fails)
                .containsExactly(Map.entry("INTERNAL", 1L), Map.entry("QUOTA_EXCEEDED", 2L));
        assertLatency(
                fcm,
                IntStream.concat(
                                IntStream.range(20, 30).map(i -> 2_000 + i * 1_000),
                                IntStream.of(5_000))
                        .asLongStream());

        MetricRow none = minuteRows.get(key(0, "none"));
        assertThat(counts(none)).containsExactly(0L, 1L, 0L, 0L, 0L, 0L, 0L);
        assertThat(none.drops).containsExactly(Map.entry("no_device", 1L));

        assertThat(counts(minuteRows.get(key(MIN, "huawei"))))
                .containsExactly(0L, 0L, 0L, 0L, 10L, 0L, 0L);
        assertThat(counts(minuteRows.get(key(10 * MIN, "huawei"))))
                .containsExactly(0L, 0L, 0L, 0L, 1L, 0L, 0L);
        MetricRow m40 = minuteRows.get(key(40 * MIN, "fcm"));
        assertThat(counts(m40)).containsExactly(0L, 0L, 0L, 1L, 0L, 0L, 0L);
        assertThat(m40.latencyMax).isEqualTo(40 * MIN);
        assertThat(minuteRows).hasSize(6);
    }

    @Test
    void dayRowsAddUpTheMinutesAndTakeWhatWasTooLateForAMinute() {
        assertThat(counts(dayRows.get(key(0, "huawei"))))
                .containsExactly(20L, 0L, 20L, 20L, 11L, 0L, 0L);
        // d37 was too late for minute 0 but in time for the day
        assertThat(counts(dayRows.get(key(0, "fcm"))))
                .containsExactly(20L, 0L, 20L, 13L, 0L, 3L, 2L);
        assertThat(dayRows.get(key(0, "fcm")).latencyCount).isEqualTo(13);
        assertThat(counts(dayRows.get(key(0, "none")))).containsExactly(0L, 1L, 0L, 0L, 0L, 0L, 0L);
        assertThat(dayRows).hasSize(3);
    }

    @Test
    void lifecycleRowsTellWhatHappenedToEachMessage() {
        Lifecycle d0 = lifecycles.get("camp/d0");
        assertThat(d0.decision).isEqualTo("PASS");
        assertThat(d0.vendor).isEqualTo("huawei");
        assertThat(d0.uid).isEqualTo("u0");
        assertThat(d0.msgType).isEqualTo("campaign");
        assertThat(d0.decidedAt).isEqualTo(T);
        assertThat(d0.sentAt).isEqualTo(T + 1_000);
        assertThat(d0.deliveredAt).isEqualTo(T + 2_000); // the retry did not move it
        assertThat(d0.clickedAt).isEqualTo(T + 65_000);
        assertThat(d0.status()).isEqualTo(Lifecycle.CLICKED);
        assertThat(lifecycles.get("camp/d31").status()).isEqualTo(Lifecycle.FAILED);
        assertThat(lifecycles.get("camp/d31").failCode).isEqualTo("QUOTA_EXCEEDED");
        assertThat(lifecycles.get("camp/d33").status()).isEqualTo(Lifecycle.TOKEN_INVALID);
        assertThat(lifecycles.get("camp/d37").deliveredAt).isEqualTo(T + 7_000);
        assertThat(lifecycles.get("camp/d38").status()).isEqualTo(Lifecycle.SENT);
        Lifecycle u40 = lifecycles.get("camp/uid:u40");
        assertThat(u40.reason).isEqualTo("no_device");
        assertThat(Lifecycle.statusName(u40.status())).isEqualTo("dropped:no_device");
        assertThat(lifecycles).hasSize(41);
    }

    @Test
    void badAndTooLateReceiptsAreDeadLetters() {
        assertThat(deadLetters).hasSize(2);
        assertThat(deadLetters.get(0).source).isEqualTo(Topics.RECEIPTS);
        assertThat(deadLetters.get(0).reason).isEqualTo("missing field 'deviceId'");
        assertThat(deadLetters.get(0).raw).isEqualTo(BAD);
        assertThat(deadLetters.get(1).reason).startsWith("later than receipts.allowed-lateness");
        assertThat(deadLetters.get(1).position).isEqualTo("camp@2026-01-01T00:00:00Z");
        assertThat(deadLetters.get(1).raw).contains("\"delivered\":1");
    }

    @Test
    void invalidTokensAreUnboundInTheRegistry() {
        assertThat(unbinds).hasSize(2);
        assertThat(unbinds)
                .allMatch(
                        s ->
                                s.contains("\"d33\",\"token\":\"t33\"")
                                        || s.contains("\"d34\",\"token\":\"t34\""));
        Map<String, String> byUid = new TreeMap<>();
        for (Decision d : afterDecisions) {
            byUid.put(d.uid, d.isPass() ? "PASS" : d.reason);
        }
        assertThat(byUid)
                .containsExactly(
                        Map.entry("u33", "no_device"),
                        Map.entry("u34", "no_device"),
                        Map.entry("u35", "PASS"));
        assertThat(registry).hasSize(38).doesNotContain("d33", "d34");
    }

    @Test
    void sqlSeesTheSameNumbers() throws Exception {
        LocalStack stack = STACK.get();
        TableEnvironment sql = ReceiptCatalog.open(stack.hbaseZkQuorum(), NS, new Configuration());
        Map<String, List<Long>> byVendor = new TreeMap<>();
        for (Row row :
                rows(
                        sql,
                        "SELECT vendor, SUM(passed), SUM(dropped), SUM(sent), SUM(delivered),"
                                + " SUM(clicked), SUM(failed), SUM(token_invalid) FROM"
                                + " metrics_minute WHERE msg_id = 'camp' GROUP BY vendor")) {
            List<Long> sums = new ArrayList<>();
            for (int i = 1; i < row.getArity(); i++) {
                sums.add((Long) row.getField(i));
            }
            byVendor.put((String) row.getField(0), sums);
        }
        Map<String, List<Long>> expected = new TreeMap<>();
        for (MetricRow r : minuteRows.values()) {
            expected.merge(
                    r.vendor,
                    counts(r),
                    (a, b) ->
                            IntStream.range(0, a.size())
                                    .mapToObj(i -> a.get(i) + b.get(i))
                                    .collect(Collectors.toList()));
        }
        assertThat(byVendor).isEqualTo(expected);

        List<Row> drops = rows(sql, "SELECT reason, SUM(n) FROM drops_minute GROUP BY reason");
        assertThat(drops).containsExactly(Row.of("no_device", 1L));
        List<Row> fails =
                rows(sql, "SELECT code, SUM(n) FROM fails_minute GROUP BY code ORDER BY code");
        assertThat(fails).containsExactly(Row.of("INTERNAL", 1L), Row.of("QUOTA_EXCEEDED", 2L));
        List<Row> daily =
                rows(
                        sql,
                        "SELECT SUM(delivered), SUM(latency_count) FROM metrics_daily WHERE"
                                + " vendor = 'fcm'");
        assertThat(daily).containsExactly(Row.of(13L, 13L));
        List<Row> status =
                rows(
                        sql,
                        "SELECT status_name, COUNT(*) FROM lifecycle WHERE msg_id = 'camp' GROUP"
                                + " BY status_name ORDER BY status_name");
        assertThat(status)
                .containsExactly(
                        Row.of("clicked", 12L),
                        Row.of("delivered", 21L),
                        Row.of("dropped:no_device", 1L),
                        Row.of("failed", 3L),
                        Row.of("sent", 2L),
                        Row.of("token_invalid", 2L));
    }

    @Test
    void sqlDashEPrintsTheSameNumbers() throws Exception {
        TableEnvironment sql =
                ReceiptCatalog.open(STACK.get().hbaseZkQuorum(), NS, new Configuration());
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stdout = System.out;
        System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
        boolean ok;
        try {
            // what ./pushline sql -e runs
            ok =
                    ReceiptSql.execute(
                            sql,
                            "SELECT vendor, SUM(passed) AS passed, SUM(delivered) AS delivered,"
                                    + " SUM(clicked) AS clicked, SUM(token_invalid) AS invalid FROM"
                                    + " metrics_daily WHERE msg_id = 'camp' GROUP BY vendor ORDER BY"
                                    + " vendor");
        } finally {
            System.setOut(stdout);
        }
        assertThat(ok).isTrue();
        List<String> rows = new ArrayList<>();
        for (String line : printed.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("|") && !line.contains("vendor")) {
                rows.add(line.replaceAll("\\s+", ""));
            }
        }
        List<String> expected = new ArrayList<>();
        for (MetricRow r : dayRows.values()) {
            expected.add(
                    "|"
                            + r.vendor
                            + "|"
                            + r.passed
                            + "|"
                            + r.delivered
                            + "|"
                            + r.clicked
                            + "|"
                            + r.tokenInvalid
                            + "|");
        }
        java.util.Collections.sort(expected);
        assertThat(rows).isEqualTo(expected);
    }

    @Test
    void theLookupFunctionFindsALifecycleByItsKey() throws Exception {
        LifecycleLookupAccess lookup = new LifecycleLookupAccess(STACK.get().hbaseZkQuorum(), NS);
        try {
            assertThat(lookup.find("camp", "d31")).isEqualTo("camp/d31 fcm failed QUOTA_EXCEEDED");
            assertThat(lookup.find("camp", "nope")).isNull();
        } finally {
            lookup.close();
        }
    }

    static List<Row> rows(TableEnvironment sql, String query) throws Exception {
        List<Row> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    static List<Long> counts(MetricRow r) {
        assertThat(r).isNotNull();
        return List.of(
                r.passed, r.dropped, r.sent, r.delivered, r.clicked, r.failed, r.tokenInvalid);
    }

    /** Percentiles within 1/32 of the exact ones (the histogram's resolution), max exact. */
    static void assertLatency(MetricRow r, java.util.stream.LongStream latencies) {
        long[] sorted = latencies.sorted().toArray();
        assertThat(r.latencyCount).isEqualTo(sorted.length);
        assertThat(r.latencyMax).isEqualTo(sorted[sorted.length - 1]);
        long p50 = sorted[(int) Math.ceil(0.5 * sorted.length) - 1];
        long p90 = sorted[(int) Math.ceil(0.9 * sorted.length) - 1];
        assertThat((double) r.latencyP50)
                .isCloseTo(p50, org.assertj.core.data.Offset.offset(p50 / 32.0));
        assertThat((double) r.latencyP90)
                .isCloseTo(p90, org.assertj.core.data.Offset.offset(p90 / 32.0));
    }

    static String key(long offset, String vendor) {
        return (T + offset) + "/" + vendor;
    }

    static Map<String, MetricRow> minuteRows(LocalStack stack) {
        return rows(stack, ReceiptTables.METRICS, MetricRow.MINUTE);
    }

    static Map<String, MetricRow> dayRows(LocalStack stack) {
        return rows(stack, ReceiptTables.METRICS_DAILY, MetricRow.DAY);
    }

    static Map<String, MetricRow> rows(LocalStack stack, String table, String grain) {
        Map<String, MetricRow> out = new TreeMap<>();
        try (Table t = stack.hbase().connection().getTable(TableName.valueOf(NS, table));
                ResultScanner s =
                        t.getScanner(
                                new Scan()
                                        .setRowPrefixFilter(ReceiptTables.metricsPrefix("camp")))) {
            for (Result res : s) {
                MetricRow r = ReceiptTables.metricRow(grain, res);
                assertThat(r.msgType).isEqualTo("campaign");
                out.put(r.start + "/" + r.vendor, r);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    static Map<String, Lifecycle> lifecycles(LocalStack stack) throws Exception {
        Map<String, Lifecycle> out = new TreeMap<>();
        try (Table t =
                        stack.hbase()
                                .connection()
                                .getTable(TableName.valueOf(NS, ReceiptTables.LIFECYCLE));
                ResultScanner s = t.getScanner(new Scan())) {
            for (Result res : s) {
                Lifecycle l = ReceiptTables.lifecycle(res);
                out.put(l.msgId + "/" + l.deviceId, l);
            }
            // the same row by key, as ./pushline trace reads it
            Result one = t.get(new Get(ReceiptTables.lifecycleRow("camp", "d0")));
            assertThat(ReceiptTables.lifecycle(one).clickedAt).isEqualTo(T + 65_000);
        }
        return out;
    }

    static JobClient startReceipts(LocalStack stack) throws Exception {
        Map<String, String> o = new HashMap<>(stack.jobOptions());
        o.put(CommonOptions.HBASE_NAMESPACE.key(), NS);
        o.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        o.put(ReceiptsOptions.MAX_OUT_OF_ORDERNESS.key(), "1 s");
        o.put(ReceiptsOptions.IDLE_TIMEOUT.key(), "1 s");
        o.put(ReceiptsOptions.ALLOWED_LATENESS.key(), "15 min");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        return ReceiptsJob.start(env, Configuration.fromMap(o));
    }

    static void dispatch(LocalStack stack, String txPrefix) throws Exception {
        Map<String, String> o = new HashMap<>(stack.jobOptions());
        o.put(CommonOptions.HBASE_NAMESPACE.key(), NS);
        o.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        o.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        o.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        o.put(DispatchOptions.MAX_PAST.key(), "0 s");
        o.put(DispatchOptions.PACING_ENABLED.key(), "false");
        o.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), txPrefix);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        DispatchJob.start(env, Configuration.fromMap(o))
                .getJobExecutionResult()
                .get(3, TimeUnit.MINUTES);
    }

    static String push(String msgId, long ts, int fromUid, int untilUid) {
        String uids =
                IntStream.range(fromUid, untilUid)
                        .mapToObj(i -> "\"u" + i + "\"")
                        .collect(Collectors.joining(","));
        return "{\"ts\":"
                + ts
                + ",\"type\":\"push\",\"msgId\":\""
                + msgId
                + "\",\"msgType\":\"campaign\",\"title\":\"Sale\",\"body\":\"Today only\","
                + "\"target\":{\"uids\":["
                + uids
                + "]}}";
    }

    static String[] receipt(String type, int device, long ts, String code) {
        String vendor = device < 20 ? "huawei" : "fcm";
        return KafkaTopics.kv(
                "d" + device,
                "{\"type\":\""
                        + type
                        + "\",\"msgId\":\"camp\",\"deviceId\":\"d"
                        + device
                        + "\",\"vendor\":\""
                        + vendor
                        + "\",\"ts\":"
                        + ts
                        + (code == null ? "" : ",\"code\":\"" + code + "\"")
                        + (type.equals("token_invalid") ? ",\"token\":\"t" + device + "\"" : "")
                        + "}");
    }

    static void await(BooleanSupplier condition, String what) {
        await(condition, () -> what);
    }

    /**
     * Waits for the job's next output (push.metrics, push.dlq, device.events) until {@code
     * condition} holds; fails after two minutes of nothing that makes it hold.
     */
    static void await(BooleanSupplier condition, java.util.function.Supplier<String> what) {
        long until = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        try (KafkaConsumer<byte[], byte[]> outputs =
                new KafkaConsumer<>(KafkaIO.toEndReader(STACK.get().kafkaBootstrap()))) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : List.of(Topics.METRICS, Topics.DLQ, Topics.DEVICE_EVENTS)) {
                parts.addAll(CommittedRecords.partitions(outputs, topic));
            }
            outputs.assign(parts);
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > until) {
                    throw new AssertionError("timed out waiting for " + what.get());
                }
                // rows reach HBase within a second of their record on push.metrics
                outputs.poll(Duration.ofMillis(500));
            }
        }
    }

    static String lifecycleOf(LocalStack stack, String device) {
        try (Table t =
                stack.hbase()
                        .connection()
                        .getTable(TableName.valueOf(NS, ReceiptTables.LIFECYCLE))) {
            Lifecycle l =
                    ReceiptTables.lifecycle(
                            t.get(new Get(ReceiptTables.lifecycleRow("camp", device))));
            return l + " delivered at " + l.deliveredAt;
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
