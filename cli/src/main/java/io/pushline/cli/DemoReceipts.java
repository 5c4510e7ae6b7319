package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.receipts.ReceiptTables;
import io.pushline.receipts.ReceiptsJob;
import io.pushline.receipts.ReceiptsOptions;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.MetricRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * The demo's receipts: simulated vendor gateways report on every send, the receipts job (bounded)
 * turns decisions and receipts into the metrics tables, lifecycle rows and unbinds, which are
 * checked against the gateways' counts; then the report of the biggest campaign.
 */
final class DemoReceipts {
    private DemoReceipts() {}

    static int run(LocalStack stack, Path dir) throws Exception {
        String kafka = stack.kafkaBootstrap();
        DemoCommand.step(
                "[8/9] the gateway job sends to the vendor emulators with each vendor's protocol;"
                        + " their answers and the devices' reports (push.receipts) go through the"
                        + " receipts job (bounded): metrics, lifecycles and unbinds");
        long unbindsBefore = unbinds(kafka);
        DemoVendors.run(stack, dir);
        long ts = System.nanoTime();
        DemoGateways gateways = new DemoGateways();
        gateways.reportOn(kafka);
        DemoTopics.produce(kafka, Topics.RECEIPTS, gateways.receipts);
        System.out.printf(
                "      %,d receipts from the gateway and %,d reported from devices and the long"
                        + " connection, for %,d sends: %,d delivered, %,d clicked, %,d failed, %,d"
                        + " tokens invalid (%.1f s)%n",
                gateways.gatewayReceipts,
                gateways.receipts.size(),
                gateways.sends,
                gateways.delivered,
                gateways.clicked,
                gateways.failed,
                gateways.tokenInvalid,
                DemoCommand.secs(ts));

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        // the demo's day and its personal slots tomorrow are one replay: nothing is too late
        opts.put(ReceiptsOptions.ALLOWED_LATENESS.key(), "2 d");
        Configuration flink = stack.flinkConfiguration();
        flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        ts = System.nanoTime();
        JobClient job = ReceiptsJob.start(env, Configuration.fromMap(opts));
        var result = job.getJobExecutionResult();
        while (!result.isDone()) {
            System.out.printf("      %5.1f s  %s%n", DemoCommand.secs(ts), DemoCommand.status(job));
            try {
                result.get(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException stillRunning) {
                // Print progress again.
            }
        }
        result.get();
        double jobSecs = DemoCommand.secs(ts);

        long[] decisions = new long[2];
        Map<String, Long> passesByCampaign = new HashMap<>();
        Map<String, String> firstDevice = new HashMap<>();
        CommittedRecords.readAll(
                kafka,
                Topics.DECISIONS,
                r -> {
                    Decision d =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8), Decision.class);
                    decisions[d.isPass() ? 0 : 1]++;
                    if (d.isPass() && "promo".equals(d.msgType)) {
                        passesByCampaign.merge(d.msgId, 1L, Long::sum);
                        firstDevice.putIfAbsent(d.msgId, d.deviceId);
                    }
                });
        MetricRow total = totals(stack);
        long unbinds = unbinds(kafka) - unbindsBefore;
        long events =
                decisions[0] + decisions[1] + gateways.receipts.size() + gateways.gatewayReceipts;
        System.out.printf(
                "      receipts job: %,d decisions and receipts in %.1f s = %,.0f events/s%n",
                events, jobSecs, events / jobSecs);
        System.out.printf(
                "      push_metrics (sum of all minute rows): passed %,d, dropped %,d, sent %,d,"
                        + " delivered %,d, clicked %,d, failed %,d, tokens invalid %,d; unbinds on"
                        + " device.events %,d%n",
                total.passed,
                total.dropped,
                total.sent,
                total.delivered,
                total.clicked,
                total.failed,
                total.tokenInvalid,
                unbinds);
        boolean ok =
                total.passed == decisions[0]
                        && total.dropped == decisions[1]
                        && total.sent == gateways.sent
                        && total.delivered == gateways.delivered
                        && total.clicked == gateways.clicked
                        && total.failed == gateways.failed
                        && total.tokenInvalid == gateways.tokenInvalid
                        && unbinds == gateways.tokenInvalid;
        System.out.println(
                ok
                        ? "Check: the minute tables count every decision and receipt once; every"
                                + " invalid token became an unbind. OK"
                        : "Check FAILED: expected passed "
                                + decisions[0]
                                + ", dropped "
                                + decisions[1]
                                + " and the gateways' counts above");

        DemoCommand.step(
                "[9/9] the biggest campaign: its report, one of its messages traced, SQL on the"
                        + " tables");
        String biggest =
                passesByCampaign.entrySet().stream()
                        .max(Map.Entry.comparingByValue())
                        .map(Map.Entry::getKey)
                        .orElse(null);
        if (biggest != null) {
            Path html = dir.resolve("report-" + biggest + ".html");
            Main.run(
                    new String[] {
                        "report",
                        "--campaign",
                        biggest,
                        "--out",
                        html.toString(),
                        "--" + CommonOptions.HBASE_ZK_QUORUM.key(),
                        stack.hbaseZkQuorum()
                    });
            String device = firstDevice.get(biggest);
            String[] hbase = {"--" + CommonOptions.HBASE_ZK_QUORUM.key(), stack.hbaseZkQuorum()};
            System.out.println("$ ./pushline trace " + biggest + " " + device);
            Main.run("trace", biggest, device, hbase[0], hbase[1]);
            String query =
                    "SELECT vendor, SUM(sent) AS sent, SUM(delivered) AS delivered, SUM(clicked) AS"
                            + " clicked, SUM(token_invalid) AS tokens_invalid FROM metrics_daily"
                            + " GROUP BY vendor ORDER BY sent DESC";
            System.out.println("$ ./pushline sql -e '" + query + "'");
            Main.run("sql", "-e", query, hbase[0], hbase[1]);
        }
        return ok ? 0 : 1;
    }

    private static MetricRow totals(LocalStack stack) throws Exception {
        MetricRow t = new MetricRow();
        try (Table table =
                        stack.hbase()
                                .connection()
                                .getTable(TableName.valueOf("pushline", ReceiptTables.METRICS));
                ResultScanner s = table.getScanner(new Scan())) {
            for (Result res : s) {
                MetricRow m = ReceiptTables.metricRow(MetricRow.MINUTE, res);
                t.passed += m.passed;
                t.dropped += m.dropped;
                t.sent += m.sent;
                t.delivered += m.delivered;
                t.clicked += m.clicked;
                t.failed += m.failed;
                t.tokenInvalid += m.tokenInvalid;
            }
        }
        return t;
    }

    private static long unbinds(String kafka) {
        long[] n = {0};
        CommittedRecords.readAll(
                kafka,
                Topics.DEVICE_EVENTS,
                r -> {
                    if (new String(r.value(), StandardCharsets.UTF_8).contains("\"unbind\"")) {
                        n[0]++;
                    }
                });
        return n[0];
    }
}
