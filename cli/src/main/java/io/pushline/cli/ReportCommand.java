package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.JobOptionArgs;
import io.pushline.local.LocalStack;
import io.pushline.receipts.report.CampaignReport;
import io.pushline.receipts.report.ReportPage;
import io.pushline.schema.receipts.MetricRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline report --campaign MSGID [--out FILE]}: the campaign's funnel on standard output
 * and an HTML page with its charts (default {@code .pushline/reports/MSGID.html}).
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = {
            "A campaign's funnel on stdout, and an HTML page with its charts.",
            "Reads the receipts tables of the local stack, or --hbase.zookeeper.quorum Q"
                    + " [--hbase.namespace NS]."
        })
final class ReportCommand extends JobOptionArgs.Command implements Callable<Integer> {
    @Option(names = "--campaign", required = true, paramLabel = "MSGID")
    String msgId;

    @Option(
            names = "--out",
            paramLabel = "FILE.html",
            description = "Default: .pushline/reports/MSGID.html.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Configuration o = ReceiptsCli.options(jobOptions());
        CampaignReport r =
                CampaignReport.load(
                        HBaseTables.address(o), o.get(CommonOptions.HBASE_NAMESPACE), msgId);
        if (r.isEmpty()) {
            System.out.println(
                    "no metrics for campaign '"
                            + msgId
                            + "' (is the receipts job running, and has the minute closed?)");
            return 1;
        }
        if (out == null) {
            out = LocalStack.defaultDir().resolve("reports").resolve(safe(msgId) + ".html");
        }
        System.out.print(funnel(r));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, ReportPage.html(r), StandardCharsets.UTF_8);
        System.out.println("Report page: " + out.toAbsolutePath());
        return 0;
    }

    static String funnel(CampaignReport r) {
        MetricRow t = r.total;
        StringBuilder b = new StringBuilder();
        b.append(
                String.format(
                        "Campaign %s (msgType %s), %s to %s UTC, %d minutes with activity%n",
                        r.msgId,
                        String.join(", ", r.msgTypes),
                        Instant.ofEpochMilli(r.timeline.firstKey()),
                        Instant.ofEpochMilli(r.timeline.lastKey() + 60_000),
                        r.timeline.size()));
        long decided = t.passed + t.dropped;
        b.append(String.format("  %-14s %,10d%n", "decided", decided));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s  %s%n",
                        "dropped",
                        t.dropped,
                        CampaignReport.pct(t.dropped, decided),
                        counts(t.drops)));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s%n",
                        "passed", t.passed, CampaignReport.pct(t.passed, decided)));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s of passed%n",
                        "sent", t.sent, CampaignReport.pct(t.sent, t.passed)));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s of sent%n",
                        "delivered", t.delivered, CampaignReport.pct(t.delivered, t.sent)));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s of delivered%n",
                        "clicked", t.clicked, CampaignReport.pct(t.clicked, t.delivered)));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s of sent  %s%n",
                        "failed", t.failed, CampaignReport.pct(t.failed, t.sent), counts(t.fails)));
        b.append(
                String.format(
                        "  %-14s %,10d  %7s of sent  (devices unbound)%n",
                        "token invalid",
                        t.tokenInvalid,
                        CampaignReport.pct(t.tokenInvalid, t.sent)));
        b.append(
                String.format(
                        "  %-14s %,10d  users who read it in their inbox%n",
                        "read in inbox", t.inboxRead));
        b.append(
                String.format(
                        "  %-8s %10s %10s %10s %10s %10s %8s %8s%n",
                        "vendor",
                        "dropped",
                        "passed",
                        "sent",
                        "delivered",
                        "clicked",
                        "failed",
                        "invalid"));
        for (Map.Entry<String, MetricRow> e : r.byVendor.entrySet()) {
            MetricRow v = e.getValue();
            b.append(
                    String.format(
                            "  %-8s %,10d %,10d %,10d %,10d %,10d %,8d %,8d%n",
                            e.getKey(),
                            v.dropped,
                            v.passed,
                            v.sent,
                            v.delivered,
                            v.clicked,
                            v.failed,
                            v.tokenInvalid));
        }
        for (MetricRow d : r.days) {
            if (d.latencyCount > 0) {
                b.append(
                        String.format(
                                "  latency %s %-8s p50 %s  p90 %s  p99 %s  (%,d deliveries)%n",
                                Instant.ofEpochMilli(d.start).toString().substring(0, 10),
                                d.vendor,
                                ms(d.latencyP50),
                                ms(d.latencyP90),
                                ms(d.latencyP99),
                                d.latencyCount));
            }
        }
        return b.toString();
    }

    static String counts(Map<String, Long> m) {
        return m.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    static String ms(long ms) {
        return CampaignReport.ms(ms);
    }

    private static String safe(String msgId) {
        return msgId.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
