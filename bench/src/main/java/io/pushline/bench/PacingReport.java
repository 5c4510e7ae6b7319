package io.pushline.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Turns the pacing bench's series into the figures it prints, a CSV and an HTML chart. */
final class PacingReport {
    /** Seconds after the backlog is loaded before the steady window starts. */
    static final int SETTLE = 5;

    static final int TAIL =
            3; // the last seconds may miss sends whose transaction the cancel aborted
    static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#333333"};

    private PacingReport() {}

    /** A round's verdict: worst 10-s rate error and share error, realtime p99 (steady window). */
    record Result(double rateError, double shareError, long realtimeP99Ms) {}

    /** Prints a round's report and writes its series; null when the run was too short to judge. */
    static Result write(PacingBench.Series s, Path out, long loadedAt, int round) throws Exception {
        if (s.total == 0) {
            System.out.println("no sends reached the vendor topics");
            return null;
        }
        String[] vendors = PacingBench.VENDORS;
        long first = s.first / 1000;
        long last = Collections.max(s.bySecond.keySet());
        int n = (int) (last - first + 1);
        long[][][] c = new long[n][][];
        for (int i = 0; i < n; i++) {
            c[i] = s.bySecond.getOrDefault(first + i, new long[vendors.length][4]);
        }
        if (loadedAt == 0) {
            System.out.println("the backlog was not loaded before the end: raise --seconds");
            return null;
        }
        int from = (int) Math.max(0, (loadedAt + 999) / 1000 - first) + SETTLE;
        int to = n - TAIL; // exclusive
        if (to - from < 10) {
            System.out.println("run too short for a 10 s window after the load: raise --seconds");
            return null;
        }
        double rateError = 0;
        double shareError = 0;
        int[] weights = {1, 2, 4};
        System.out.printf(
                "backlog loaded into the pacer's state %.1f s after the first send; steady window:"
                        + " seconds %d to %d of %d%n",
                (loadedAt - s.first) / 1000.0, from, to, n);
        for (int v = 0; v < vendors.length; v++) {
            double target = PacingBench.RATES[v];
            double max1 = 0;
            double sum = 0;
            double worst10 = 0;
            for (int i = from; i < to; i++) {
                long t = total(c[i][v]);
                max1 = Math.max(max1, t);
                sum += t;
                if (i + 10 <= to) {
                    double w = 0;
                    for (int j = i; j < i + 10; j++) {
                        w += total(c[j][v]);
                    }
                    worst10 = Math.max(worst10, Math.abs(w / 10 / target - 1));
                }
            }
            double mean = sum / (to - from);
            rateError = Math.max(rateError, worst10);
            long[] byLevel = new long[4];
            for (int i = from; i < to; i++) {
                for (int l = 0; l < 4; l++) {
                    byLevel[l] += c[i][v][l];
                }
            }
            long bulk = byLevel[0] + byLevel[1] + byLevel[2];
            StringBuilder shares = new StringBuilder();
            for (int l = 0; l < 3; l++) {
                double share = (double) byLevel[l] / bulk;
                double expected = weights[l] / 7.0;
                shareError = Math.max(shareError, Math.abs(share / expected - 1));
                shares.append(
                        String.format(
                                Locale.ROOT,
                                "  L%d %.4f (weight %d: %.4f)",
                                l,
                                share,
                                weights[l],
                                expected));
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-7s target %,6.0f/s  mean %,8.1f/s (%.4f)  max 1 s %,6.0f (%.3f x)  worst 10 s"
                            + " %.2f%%  realtime %,d%n",
                    vendors[v],
                    target,
                    mean,
                    mean / target,
                    max1,
                    max1 / target,
                    worst10 * 100,
                    byLevel[3]);
            System.out.println("        shares of the bulk levels:" + shares);
        }
        List<Long> steady = new ArrayList<>();
        for (int i = 0; i < s.realtimeAt.size(); i++) {
            long sec = s.realtimeAt.get(i) / 1000 - first;
            if (sec >= from && sec < to) {
                steady.add(s.realtimeLatency.get(i));
            }
        }
        List<Long> all = new ArrayList<>(s.realtimeLatency);
        Collections.sort(steady);
        Collections.sort(all);
        System.out.printf(
                "realtime level 3, produced to visible (read_committed): steady window %,d pushes p50 %d ms, p99"
                        + " %d ms, max %d ms; whole run %,d pushes p50 %d ms, p99 %d ms, max %d ms%n",
                steady.size(),
                pct(steady, 0.5),
                pct(steady, 0.99),
                pct(steady, 1.0),
                all.size(),
                pct(all, 0.5),
                pct(all, 0.99),
                pct(all, 1.0));

        // one pair of files per round: an odd round is what needs looking at afterwards
        Path csv = out.resolve("pacing-" + round + ".csv");
        Path html = out.resolve("pacing-" + round + ".html");
        writeCsv(csv, c);
        writeHtml(html, c, from, to);
        System.out.println("series: " + csv + "   chart: " + html);
        return new Result(rateError, shareError, pct(steady, 0.99));
    }

    private static long total(long[] levels) {
        long t = 0;
        for (long x : levels) {
            t += x;
        }
        return t;
    }

    private static long pct(List<Long> sorted, double q) {
        if (sorted.isEmpty()) {
            return -1;
        }
        int i = (int) Math.ceil(q * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    private static void writeCsv(Path csv, long[][][] c) throws Exception {
        StringBuilder b =
                new StringBuilder("second,vendor,target,total,level0,level1,level2,level3\n");
        for (int i = 0; i < c.length; i++) {
            for (int v = 0; v < PacingBench.VENDORS.length; v++) {
                long[] l = c[i][v];
                b.append(i)
                        .append(',')
                        .append(PacingBench.VENDORS[v])
                        .append(',')
                        .append((long) PacingBench.RATES[v])
                        .append(',')
                        .append(total(l));
                for (long x : l) {
                    b.append(',').append(x);
                }
                b.append('\n');
            }
        }
        Files.writeString(csv, b.toString(), StandardCharsets.UTF_8);
    }

    /** One SVG per vendor: sends per second in all and per level, the target dashed. */
    private static void writeHtml(Path html, long[][][] c, int from, int to) throws Exception {
        StringBuilder b = new StringBuilder();
        b.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Pushline pacing")
                .append(" bench</title><style>body{font-family:sans-serif;margin:24px}")
                .append("h2{font-size:16px;margin:18px 0 4px}svg{background:#fafafa;")
                .append(
                        "border:1px solid #ddd}.legend span{margin-right:14px}</style></head><body>")
                .append("<h1>Pacing bench: sends per second reaching each vendor topic</h1>")
                .append("<p>Shaded: the steady window the figures are measured on (from ")
                .append(SETTLE)
                .append(" s after the whole backlog was loaded into the pacer's state). Dashed:")
                .append(" the vendor's configured rate.</p>")
                .append("<p class=\"legend\">");
        String[] names = {"level 0", "level 1 (campaign)", "level 2", "level 3 (realtime)", "all"};
        for (int l = 0; l < names.length; l++) {
            b.append("<span style=\"color:")
                    .append(COLORS[l])
                    .append("\">&#9632; ")
                    .append(names[l])
                    .append("</span>");
        }
        b.append("</p>");
        int w = 900;
        int h = 260;
        int pad = 40;
        for (int v = 0; v < PacingBench.VENDORS.length; v++) {
            double target = PacingBench.RATES[v];
            double top = target * 1.25;
            double xs = (double) (w - 2 * pad) / Math.max(1, c.length - 1);
            b.append("<h2>")
                    .append(PacingBench.VENDORS[v])
                    .append(String.format(Locale.ROOT, " (target %,.0f/s)", target))
                    .append("</h2><svg width=\"")
                    .append(w)
                    .append("\" height=\"")
                    .append(h)
                    .append("\">");
            b.append(
                    String.format(
                            Locale.ROOT,
                            "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#e8f0e8\"/>",
                            pad + from * xs,
                            pad / 2,
                            (to - 1 - from) * xs,
                            h - pad - pad / 2));
            double ty = y(target, top, h, pad);
            b.append(
                    String.format(
                            Locale.ROOT,
                            "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\""
                                    + " stroke-dasharray=\"6 4\"/>",
                            pad,
                            ty,
                            w - pad,
                            ty));
            for (int tick = 0; tick <= 4; tick++) {
                double value = top * tick / 4;
                b.append(
                        String.format(
                                Locale.ROOT,
                                "<text x=\"2\" y=\"%.1f\" font-size=\"10\">%,.0f</text>",
                                y(value, top, h, pad) + 3,
                                value));
            }
            for (int sec = 0; sec < c.length; sec += 10) {
                b.append(
                        String.format(
                                Locale.ROOT,
                                "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%d s</text>",
                                pad + sec * xs - 6,
                                h - pad + 14,
                                sec));
            }
            for (int series = 0; series < 5; series++) {
                b.append("<polyline fill=\"none\" stroke-width=\"")
                        .append(series == 4 ? 2 : 1.2)
                        .append("\" stroke=\"")
                        .append(COLORS[series])
                        .append("\" points=\"");
                for (int i = 0; i < c.length; i++) {
                    long value = series == 4 ? total(c[i][v]) : c[i][v][series];
                    b.append(
                            String.format(
                                    Locale.ROOT,
                                    "%.1f,%.1f ",
                                    pad + i * xs,
                                    y(value, top, h, pad)));
                }
                b.append("\"/>");
            }
            b.append("</svg>");
        }
        b.append("</body></html>\n");
        Files.writeString(html, b.toString(), StandardCharsets.UTF_8);
    }

    private static double y(double value, double top, int h, int pad) {
        double plot = h - pad - pad / 2.0;
        return h - pad - Math.min(value, top) / top * plot;
    }
}
