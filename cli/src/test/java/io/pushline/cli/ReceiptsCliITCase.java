package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.receipts.ReceiptTables;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricRow;
import io.pushline.testkit.Clusters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pushline sql -e}, {@code trace} and {@code report} over receipts tables on the real
 * embedded HBase: every query of jobs/receipts/README.md runs, and the numbers they print are the
 * rows written.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReceiptsCliITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final String NS = "itreceiptscli";
    static final long T = 1_767_225_600_000L; // 2026-01-01T00:00Z

    @TempDir Path out;

    @BeforeAll
    static void rows() throws Exception {
        Connection c = STACK.get().hbase().connection();
        ReceiptTables.ensure(c, NS);
        try (Table minutes = c.getTable(TableName.valueOf(NS, ReceiptTables.METRICS));
                Table days = c.getTable(TableName.valueOf(NS, ReceiptTables.METRICS_DAILY));
                Table lifecycles = c.getTable(TableName.valueOf(NS, ReceiptTables.LIFECYCLE))) {
            minutes.put(ReceiptTables.put(row(MetricRow.MINUTE, T, "huawei", 100, 98, 90, 0, 3)));
            minutes.put(
                    ReceiptTables.put(row(MetricRow.MINUTE, T + 60_000, "huawei", 0, 0, 5, 7, 0)));
            minutes.put(ReceiptTables.put(row(MetricRow.MINUTE, T, "fcm", 50, 50, 40, 2, 0)));
            MetricRow other = row(MetricRow.MINUTE, T, "fcm", 7, 7, 7, 7, 0);
            other.msgId = "msg-000751";
            minutes.put(ReceiptTables.put(other));
            days.put(ReceiptTables.put(row(MetricRow.DAY, T, "huawei", 100, 98, 95, 7, 3)));
            days.put(ReceiptTables.put(row(MetricRow.DAY, T, "fcm", 50, 50, 40, 2, 0)));
            Lifecycle l = new Lifecycle();
            l.msgId = "msg-000750";
            l.deviceId = "dev-0000042";
            l.uid = "u-0000042";
            l.vendor = "huawei";
            l.msgType = "promo";
            l.decision = "PASS";
            l.code = 0;
            l.decidedAt = T;
            l.sentAt = T + 1_500;
            l.deliveredAt = T + 4_000;
            l.clickedAt = T + 65_000;
            lifecycles.put(ReceiptTables.put(l));
            Lifecycle dropped = new Lifecycle();
            dropped.msgId = "msg-000750";
            dropped.deviceId = "dev-0000043";
            dropped.vendor = "fcm";
            dropped.msgType = "promo";
            dropped.decision = "DROP";
            dropped.reason = "quiet_hours";
            dropped.code = 13;
            dropped.decidedAt = T;
            lifecycles.put(ReceiptTables.put(dropped));
            MetricRow lc = row(MetricRow.DAY, T, "longconn", 30, 30, 0, 1, 0);
            lc.lcAcked = 27;
            lc.lcRetries = 9;
            lc.lcFallbacks = 2;
            lc.lcGiveUps = 1;
            lc.compensationCount = 3;
            lc.compensationP99 = 125_000;
            days.put(ReceiptTables.put(lc));
            for (int i = 0; i < 3; i++) {
                Lifecycle acked = new Lifecycle();
                acked.msgId = "msg-000750";
                acked.deviceId = "lc-" + i;
                acked.vendor = "longconn";
                acked.msgType = "promo";
                acked.decision = "PASS";
                acked.code = 0;
                acked.decidedAt = T;
                acked.lcRetries = 1 + i;
                acked.lcAckedAt = T + 20_000 + 60_000 * i * i;
                acked.lcCompensationMs = 20_000 + 60_000L * i * i;
                lifecycles.put(ReceiptTables.put(acked));
            }
        }
    }

    static MetricRow row(
            String grain,
            long start,
            String vendor,
            long passed,
            long sent,
            long delivered,
            long clicked,
            long dropped) {
        MetricRow r = new MetricRow();
        r.grain = grain;
        r.start = start;
        r.msgId = "msg-000750";
        r.msgType = "promo";
        r.vendor = vendor;
        r.passed = passed;
        r.sent = sent;
        r.delivered = delivered;
        r.clicked = clicked;
        r.dropped = dropped;
        if (dropped > 0) {
            r.drops = new TreeMap<>(Map.of("quiet_hours", dropped));
        }
        if (sent > delivered) {
            r.failed = sent - delivered;
            r.fails = new TreeMap<>(Map.of("QUOTA_EXCEEDED", sent - delivered));
        }
        r.latencyCount = delivered;
        r.latencyP50 = 3_000;
        r.latencyP90 = vendor.equals("fcm") ? 9_000 : 5_000;
        r.latencyP99 = 20_000;
        r.latencyMax = 30_000;
        return r;
    }

    @Test
    void everyReadmeQueryRuns() throws Exception {
        List<String> queries = readmeQueries();
        assertThat(queries).hasSize(13);
        for (String q : queries) {
            Ran r = Ran.pushline(args("sql", "-e", q));
            assertThat(r.code()).as(q + "\n" + r.err()).isZero();
            assertThat(r.out()).as(q).contains("+--");
        }
    }

    @Test
    void theFunnelQueryPrintsTheRowsSums() throws Exception {
        Ran r = Ran.pushline(args("sql", "-e", readmeQueries().get(0)));
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .containsPattern("\\|\\s+huawei \\|\\s+100 \\|\\s+98 \\|\\s+95 \\|\\s+7 \\|");
        assertThat(r.out())
                .containsPattern("\\|\\s+fcm \\|\\s+50 \\|\\s+50 \\|\\s+40 \\|\\s+2 \\|");
        Ran bad = Ran.pushline(args("sql", "-e", "SELECT nope FROM metrics_minute"));
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.err()).contains("pushline sql:").contains("nope");
    }

    @Test
    void theCompensationTimesAreADistributionInSql() throws Exception {
        Ran r = Ran.pushline(args("sql", "-e", readmeQueries().get(12)));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .containsPattern("\\|\\s+0 \\|\\s+1 \\|")
                .containsPattern("\\|\\s+1 \\|\\s+1 \\|")
                .containsPattern("\\|\\s+4 \\|\\s+1 \\|");
        Ran perCampaign = Ran.pushline(args("sql", "-e", readmeQueries().get(11)));
        assertThat(perCampaign.out())
                .containsPattern(
                        "\\|\\s+msg-000750 \\|\\s+longconn \\|\\s+9 \\|\\s+27 \\|\\s+2 \\|\\s+1 \\|\\s+125000 \\|");
        Ran trace = Ran.pushline(args("trace", "msg-000750", "lc-2"));
        assertThat(trace.out()).contains("after 3 retries: compensation 260.0 s");
    }

    @Test
    void aCampaignsQueryScansOnlyItsRows() throws Exception {
        String where = " FROM metrics_minute WHERE msg_id = 'msg-000750'";
        Ran plan = Ran.pushline(args("sql", "-e", "EXPLAIN SELECT SUM(sent)" + where));
        assertThat(plan.out()).contains("metrics_minute, filter=[=(msg_id, _UTF-16LE'msg-000750'");
        Ran sum = Ran.pushline(args("sql", "-e", "SELECT SUM(sent), COUNT(*)" + where));
        assertThat(sum.out()).containsPattern("\\|\\s+148 \\|\\s+3 \\|");
        Ran all = Ran.pushline(args("sql", "-e", "SELECT COUNT(*) FROM metrics_minute"));
        assertThat(all.out()).containsPattern("\\|\\s+4 \\|");
    }

    @Test
    void traceTellsWhatHappenedToOneMessage() throws Exception {
        Ran r = Ran.pushline(args("trace", "msg-000750", "dev-0000042"));
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains(
                        "message msg-000750 to device dev-0000042 (uid u-0000042, vendor huawei, msgType promo)")
                .contains("status     clicked (code 4)")
                .contains("decision   PASS at 2026-01-01T00:00:00Z")
                .contains("delivered  2026-01-01T00:00:04Z (+4.0 s)");
        Ran dropped = Ran.pushline(args("trace", "msg-000750", "dev-0000043"));
        assertThat(dropped.out())
                .contains("status     dropped:quiet_hours (code 13)")
                .contains("not sent: the gate dropped it (quiet_hours)");
        Ran none = Ran.pushline(args("trace", "msg-000750", "dev-9"));
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.out())
                .startsWith("no lifecycle for message 'msg-000750' and device 'dev-9'");
    }

    @Test
    void reportPrintsTheFunnelAndWritesThePage() throws Exception {
        Path html = out.resolve("r.html");
        Ran r = Ran.pushline(args("report", "--campaign", "msg-000750", "--out", html.toString()));
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains(
                        "Campaign msg-000750 (msgType promo), 2026-01-01T00:00:00Z to 2026-01-01T00:02:00Z UTC")
                .containsPattern("delivered\\s+135\\s+91.2% of sent")
                .containsPattern("clicked\\s+9\\s+6.7% of delivered")
                .contains("quiet_hours 3");
        String page = Files.readString(html);
        assertThat(page).contains("<svg").contains("Drops by reason").contains("quiet_hours");
        Ran none = Ran.pushline(args("report", "--campaign", "nope", "--out", html.toString()));
        assertThat(none.code()).isEqualTo(1);
    }

    static List<String> readmeQueries() throws Exception {
        Path readme = Paths.get("..", "jobs", "receipts", "README.md");
        Matcher m =
                Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL)
                        .matcher(Files.readString(readme));
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1).trim());
        }
        return out;
    }

    static String[] args(String... a) {
        List<String> all = new ArrayList<>(List.of(a));
        LocalStack stack = STACK.get();
        all.addAll(
                List.of(
                        "--hbase.zookeeper.quorum",
                        stack.hbaseZkQuorum(),
                        "--hbase.namespace",
                        NS));
        return all.toArray(new String[0]);
    }
}
