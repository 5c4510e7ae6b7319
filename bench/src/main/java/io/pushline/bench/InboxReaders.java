package io.pushline.bench;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.util.EntityUtils;

/**
 * The inbox benchmark's clients: threads of a real HTTP client (Apache HttpClient 4.5, kept-alive
 * connections) reading first pages from {@code pushline serve}, each read timed as the client sees
 * it, failures counted.
 */
final class InboxReaders {
    private InboxReaders() {}

    static double percentileMs(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))] / 1e6;
    }

    /** Which user a client reads next; -1 when there is nobody left. */
    interface UserPicker {
        int next(SplittableRandom rnd);
    }

    /** Random users, a fresh picker per client. */
    static java.util.function.Supplier<UserPicker> randomUsers(int users) {
        return () -> rnd -> rnd.nextInt(users);
    }

    /** How long a load ran, and its failed requests (errors, non-200 answers, empty bodies). */
    record Load(long elapsedNs, long failures) {}

    /** Where the measured reads go: each latency in ns, and the count. */
    record Sink(long[] latencies, AtomicLong count) {}

    /**
     * C threads reading first pages of the users {@code users} picks for {@code seconds} (or until
     * it has nobody left), each on a kept-alive connection of a pool of C (Apache HttpClient 4.5,
     * HTTP/1.1). A failed request is counted and the client goes on.
     */
    static Load load(
            int port,
            java.util.function.Supplier<UserPicker> users,
            int clients,
            int seconds,
            Sink sink)
            throws Exception {
        PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
        pool.setMaxTotal(clients);
        pool.setDefaultMaxPerRoute(clients);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        CountDownLatch done = new CountDownLatch(clients);
        AtomicLong failures = new AtomicLong();
        long start = System.nanoTime();
        try (CloseableHttpClient http = HttpClients.custom().setConnectionManager(pool).build()) {
            for (int c = 0; c < clients; c++) {
                SplittableRandom rnd = new SplittableRandom(c);
                UserPicker picker = users.get();
                Thread th =
                        new Thread(
                                () -> {
                                    try {
                                        int u;
                                        while (System.nanoTime() < end
                                                && (u = picker.next(rnd)) >= 0) {
                                            try {
                                                read(http, port, InboxBench.uid(u), sink, failures);
                                            } catch (Exception e) {
                                                failures.incrementAndGet();
                                            }
                                        }
                                    } finally {
                                        done.countDown();
                                    }
                                },
                                "inbox-client-" + c);
                th.setDaemon(true);
                th.start();
            }
            done.await();
        }
        return new Load(System.nanoTime() - start, failures.get());
    }

    /** One first-page read, its whole answer taken, timed as the client sees it. */
    private static void read(
            CloseableHttpClient http, int port, String uid, Sink sink, AtomicLong failures)
            throws Exception {
        long t0 = System.nanoTime();
        try (CloseableHttpResponse r =
                http.execute(get("http://127.0.0.1:" + port + "/v1/inbox/" + uid))) {
            byte[] body = EntityUtils.toByteArray(r.getEntity());
            long dt = System.nanoTime() - t0;
            if (r.getStatusLine().getStatusCode() != 200 || body.length == 0) {
                failures.incrementAndGet();
            } else if (sink != null) {
                long i = sink.count.getAndIncrement();
                if (i < sink.latencies.length) {
                    sink.latencies[(int) i] = dt;
                }
            }
        }
    }

    /** The app key the benchmarks' servers are made with (every scope). */
    static final String KEY = "bench-app-key";

    static HttpGet get(String url) {
        HttpGet g = new HttpGet(url);
        g.setHeader("Authorization", "Bearer " + KEY);
        return g;
    }
}
