package io.pushline.serve;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * Requests served, by route and status, and their handling time: printed at {@code GET /metrics} in
 * Prometheus' text format, so the same scraper that reads the Flink jobs reads the server.
 */
final class RequestMetrics {
    private static final double[] BUCKETS_MS = {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000};

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder[]> buckets = new ConcurrentHashMap<>();
    private final Map<String, DoubleAdder> sums = new ConcurrentHashMap<>();

    void record(String route, int status, double ms) {
        counts.computeIfAbsent(labels(route, status), k -> new LongAdder()).increment();
        // before the buckets: a route printed always has its sum
        sums.computeIfAbsent(route, r -> new DoubleAdder()).add(ms);
        LongAdder[] b =
                buckets.computeIfAbsent(
                        route,
                        r -> {
                            LongAdder[] a = new LongAdder[BUCKETS_MS.length + 1];
                            for (int i = 0; i < a.length; i++) {
                                a[i] = new LongAdder();
                            }
                            return a;
                        });
        int i = 0;
        while (i < BUCKETS_MS.length && ms > BUCKETS_MS[i]) {
            i++;
        }
        b[i].increment();
    }

    private static String labels(String route, int status) {
        return "route=\"" + route + "\",status=\"" + status + "\"";
    }

    String prometheus() {
        StringBuilder out = new StringBuilder();
        out.append("# TYPE pushline_http_requests_total counter\n");
        for (Map.Entry<String, LongAdder> e : new TreeMap<>(counts).entrySet()) {
            out.append("pushline_http_requests_total{")
                    .append(e.getKey())
                    .append("} ")
                    .append(e.getValue().sum())
                    .append('\n');
        }
        out.append("# TYPE pushline_http_request_ms histogram\n");
        for (Map.Entry<String, LongAdder[]> e : new TreeMap<>(buckets).entrySet()) {
            long cumulative = 0;
            LongAdder[] b = e.getValue();
            for (int i = 0; i < b.length; i++) {
                cumulative += b[i].sum();
                String le = i < BUCKETS_MS.length ? trim(BUCKETS_MS[i]) : "+Inf";
                out.append("pushline_http_request_ms_bucket{route=\"")
                        .append(e.getKey())
                        .append("\",le=\"")
                        .append(le)
                        .append("\"} ")
                        .append(cumulative)
                        .append('\n');
            }
            out.append("pushline_http_request_ms_sum{route=\"")
                    .append(e.getKey())
                    .append("\"} ")
                    .append(sums.get(e.getKey()).sum())
                    .append('\n');
            out.append("pushline_http_request_ms_count{route=\"")
                    .append(e.getKey())
                    .append("\"} ")
                    .append(cumulative)
                    .append('\n');
        }
        return out.toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
