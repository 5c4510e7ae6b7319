package io.pushline.receipts.report;

import io.pushline.schema.receipts.MetricRow;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The HTML page of {@code ./pushline report}: inline SVG charts, no scripts, no network. */
public final class ReportPage {
    private static final String[] COLORS = {"#4e79a7", "#59a14f", "#f28e2b", "#e15759"};
    private static final DateTimeFormatter HHMM =
            DateTimeFormatter.ofPattern("MM-dd HH:mm").withZone(ZoneOffset.UTC);
    private static final int W = 860;
    private static final int H = 260;
    private static final int PAD = 48;

    private ReportPage() {}

    public static String html(CampaignReport r) {
        MetricRow t = r.total;
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Campaign ")
                .append(esc(r.msgId))
                .append("</title><style>")
                .append(
                        "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:920px}")
                .append("h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:26px 0 8px}")
                .append(".sub{color:#666;margin-bottom:16px}")
                .append(".tiles{display:flex;gap:10px;flex-wrap:wrap}")
                .append(
                        ".tile{border:1px solid #ddd;border-radius:8px;padding:10px 14px;min-width:110px}")
                .append(
                        ".tile .n{font-size:22px;font-weight:600}.tile .l{color:#666;font-size:12px}")
                .append("svg{background:#fafafa;border:1px solid #eee;border-radius:6px}")
                .append("table{border-collapse:collapse;font-size:13px}")
                .append("td,th{padding:4px 10px;text-align:right;border-bottom:1px solid #eee}")
                .append("th:first-child,td:first-child{text-align:left}")
                .append("</style></head><body>");
        b.append("<h1>Campaign ").append(esc(r.msgId)).append("</h1>");
        b.append("<div class=\"sub\">msgType ")
                .append(esc(String.join(", ", r.msgTypes)))
                .append(" &middot; ")
                .append(HHMM.format(Instant.ofEpochMilli(r.timeline.firstKey())))
                .append(" to ")
                .append(HHMM.format(Instant.ofEpochMilli(r.timeline.lastKey() + 60_000)))
                .append(" UTC &middot; from the receipts job's minute and day tables</div>");

        long decided = t.passed + t.dropped;
        b.append("<div class=\"tiles\">");
        tile(b, "decided", decided, null);
        tile(b, "dropped by the gate", t.dropped, CampaignReport.pct(t.dropped, decided));
        tile(b, "sent", t.sent, CampaignReport.pct(t.sent, t.passed) + " of passed");
        tile(b, "delivered", t.delivered, CampaignReport.pct(t.delivered, t.sent) + " of sent");
        tile(b, "clicked", t.clicked, CampaignReport.pct(t.clicked, t.delivered) + " of delivered");
        tile(b, "failed", t.failed, CampaignReport.pct(t.failed, t.sent) + " of sent");
        tile(b, "tokens invalid", t.tokenInvalid, "devices unbound");
        tile(b, "read in inbox", t.inboxRead, "users");
        b.append("</div>");

        b.append("<h2>Funnel</h2>");
        bars(
                b,
                new String[] {"decided", "passed", "sent", "delivered", "clicked"},
                new long[] {decided, t.passed, t.sent, t.delivered, t.clicked},
                COLORS[0]);

        long[] starts = new long[0];
        List<long[]> series = new ArrayList<>();
        long step = 60_000L;
        if (!r.timeline.isEmpty()) {
            long first = r.timeline.firstKey();
            long last = r.timeline.lastKey();
            if ((last - first) / 60_000L > 2_880) {
                step = 3_600_000L; // long campaigns: hours, so the chart stays readable
            }
            int n = (int) ((last - first) / step) + 1;
            starts = new long[n];
            long[] sent = new long[n];
            long[] delivered = new long[n];
            long[] clicked = new long[n];
            long[] dropped = new long[n];
            for (int i = 0; i < n; i++) {
                starts[i] = first + i * step;
            }
            for (Map.Entry<Long, long[]> e : r.timeline.entrySet()) {
                int i = (int) ((e.getKey() - first) / step);
                sent[i] += e.getValue()[0];
                delivered[i] += e.getValue()[1];
                clicked[i] += e.getValue()[2];
                dropped[i] += e.getValue()[3];
            }
            series.add(sent);
            series.add(delivered);
            series.add(clicked);
            series.add(dropped);
        }
        String[] names = {"sent", "delivered", "clicked", "dropped"};
        b.append("<h2>Per ").append(step == 60_000L ? "minute" : "hour").append("</h2>");
        lines(b, starts, series, names);
        List<long[]> cumulative = new ArrayList<>();
        for (long[] s : series.subList(0, Math.min(3, series.size()))) {
            long[] c = new long[s.length];
            long sum = 0;
            for (int i = 0; i < s.length; i++) {
                sum += s[i];
                c[i] = sum;
            }
            cumulative.add(c);
        }
        b.append("<h2>The campaign's curve (cumulative)</h2>");
        lines(b, starts, cumulative, names);

        b.append("<h2>Drops by reason</h2>");
        mapBars(b, t.drops, COLORS[3], "no drops");
        b.append("<h2>Failures by vendor code</h2>");
        mapBars(b, t.fails, COLORS[2], "no failures");

        b.append("<h2>By vendor</h2><table><tr><th>vendor</th><th>dropped</th><th>passed</th>")
                .append("<th>sent</th>")
                .append("<th>delivered</th><th>clicked</th><th>failed</th><th>tokens invalid</th>")
                .append("<th>delivery rate</th><th>click rate</th></tr>");
        for (Map.Entry<String, MetricRow> e : r.byVendor.entrySet()) {
            MetricRow v = e.getValue();
            b.append("<tr><td>")
                    .append(esc(e.getKey()))
                    .append(cell(v.dropped))
                    .append(cell(v.passed))
                    .append(cell(v.sent))
                    .append(cell(v.delivered))
                    .append(cell(v.clicked))
                    .append(cell(v.failed))
                    .append(cell(v.tokenInvalid))
                    .append("<td>")
                    .append(CampaignReport.pct(v.delivered, v.sent))
                    .append("</td><td>")
                    .append(CampaignReport.pct(v.clicked, v.delivered))
                    .append("</td></tr>");
        }
        b.append("</table>");
        b.append("<h2>Delivery latency (from the push's time), per day</h2><table>")
                .append("<tr><th>day, vendor</th><th>deliveries</th><th>p50</th><th>p90</th>")
                .append("<th>p99</th><th>max</th></tr>");
        for (MetricRow d : r.days) {
            if (d.latencyCount > 0) {
                b.append("<tr><td>")
                        .append(Instant.ofEpochMilli(d.start).toString(), 0, 10)
                        .append(' ')
                        .append(esc(d.vendor))
                        .append(cell(d.latencyCount))
                        .append("<td>")
                        .append(CampaignReport.ms(d.latencyP50))
                        .append("</td><td>")
                        .append(CampaignReport.ms(d.latencyP90))
                        .append("</td><td>")
                        .append(CampaignReport.ms(d.latencyP99))
                        .append("</td><td>")
                        .append(CampaignReport.ms(d.latencyMax))
                        .append("</td></tr>");
            }
        }
        b.append("</table></body></html>\n");
        return b.toString();
    }

    private static void tile(StringBuilder b, String label, long n, String note) {
        b.append("<div class=\"tile\"><div class=\"n\">")
                .append(String.format("%,d", n))
                .append("</div><div class=\"l\">")
                .append(esc(label))
                .append(note == null ? "" : "<br>" + esc(note))
                .append("</div></div>");
    }

    private static void mapBars(StringBuilder b, Map<String, Long> m, String color, String none) {
        if (m.isEmpty()) {
            b.append("<p>").append(none).append("</p>");
            return;
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(m.entrySet());
        sorted.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
        String[] labels = new String[sorted.size()];
        long[] values = new long[sorted.size()];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = sorted.get(i).getKey();
            values[i] = sorted.get(i).getValue();
        }
        bars(b, labels, values, color);
    }

    /** Horizontal bars, one per label, scaled to the largest. */
    private static void bars(StringBuilder b, String[] labels, long[] values, String color) {
        int rowH = 26;
        int labelW = 150;
        int h = labels.length * rowH + 10;
        long max = 1;
        for (long v : values) {
            max = Math.max(max, v);
        }
        b.append(String.format("<svg width=\"%d\" height=\"%d\">", W, h));
        for (int i = 0; i < labels.length; i++) {
            int y = 5 + i * rowH;
            double w = (W - labelW - 120) * (double) values[i] / max;
            b.append(
                    String.format(
                            "<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"end\">%s</text>",
                            labelW - 8, y + 17, esc(labels[i])));
            b.append(
                    String.format(
                            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\""
                                    + " rx=\"3\"/>",
                            labelW, y + 3, Math.max(1.0, w), rowH - 8, color));
            b.append(
                    String.format(
                            "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%,d</text>",
                            labelW + Math.max(1.0, w) + 6, y + 17, values[i]));
        }
        b.append("</svg>");
    }

    /** Line chart of series over the period starts, with axes and a legend. */
    private static void lines(StringBuilder b, long[] x, List<long[]> series, String[] names) {
        b.append(String.format("<svg width=\"%d\" height=\"%d\">", W, H));
        if (x.length == 0) {
            b.append("</svg>");
            return;
        }
        long max = 1;
        for (long[] s : series) {
            for (long v : s) {
                max = Math.max(max, v);
            }
        }
        int plotW = W - 2 * PAD;
        int plotH = H - 2 * PAD;
        for (int g = 0; g <= 4; g++) {
            double y = PAD + plotH - plotH * g / 4.0;
            b.append(
                    String.format(
                            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
                                    + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#666\""
                                    + " text-anchor=\"end\">%,d</text>",
                            PAD, y, PAD + plotW, y, PAD - 6, y + 4, Math.round(max * g / 4.0)));
        }
        int ticks = Math.min(6, x.length);
        for (int k = 0; k < ticks; k++) {
            int i = ticks == 1 ? 0 : (int) ((long) k * (x.length - 1) / (ticks - 1));
            double px = PAD + (x.length == 1 ? plotW / 2.0 : plotW * i / (double) (x.length - 1));
            b.append(
                    String.format(
                            "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#666\""
                                    + " text-anchor=\"middle\">%s</text>",
                            px, H - PAD + 16, HHMM.format(Instant.ofEpochMilli(x[i]))));
        }
        for (int s = 0; s < series.size(); s++) {
            long[] v = series.get(s);
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < v.length; i++) {
                double px =
                        PAD + (x.length == 1 ? plotW / 2.0 : plotW * i / (double) (x.length - 1));
                double py = PAD + plotH - plotH * (double) v[i] / max;
                pts.append(String.format("%.1f,%.1f ", px, py));
            }
            b.append(
                    String.format(
                            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\""
                                    + " points=\"%s\"/>",
                            COLORS[s % COLORS.length], pts.toString().trim()));
            if (x.length == 1) {
                b.append(
                        String.format(
                                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
                                PAD + plotW / 2.0,
                                PAD + plotH - plotH * (double) v[0] / max,
                                COLORS[s % COLORS.length]));
            }
            b.append(
                    String.format(
                            "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                                    + "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>",
                            PAD + s * 110,
                            12,
                            COLORS[s % COLORS.length],
                            PAD + s * 110 + 16,
                            22,
                            names[s]));
        }
        b.append("</svg>");
    }

    private static String cell(long v) {
        return String.format("<td>%,d</td>", v);
    }

    public static String esc(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
