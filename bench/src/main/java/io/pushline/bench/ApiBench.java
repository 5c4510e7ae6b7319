package io.pushline.bench;

import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.local.LocalStack;
import io.pushline.schema.Topics;
import io.pushline.serve.HBaseReminderStore;
import io.pushline.serve.Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.util.EntityUtils;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench api [--clients C] [--seconds S]}: {@code pushline serve}'s server in this
 * JVM on the embedded Kafka and HBase, and C client threads (default 128, Apache HttpClient,
 * HTTP/1.1 kept alive) sending {@code POST /v1/push}, each answer waited for (a 202 comes only
 * after its line is committed). After a minute of warm-up, three rounds of S seconds (default 20):
 * pushes answered per second and the latency as the clients see it (p50, p99). Then every push
 * answered is looked for on {@code push.requests} with a {@code read_committed} reader: a msgId
 * found twice is a duplicate, an answered one not found is missing. Exits 1 when any call failed or
 * a push is duplicated or missing.
 */
@Command(
        name = "api",
        mixinStandardHelpOptions = true,
        description = "Pushes through the app API, each answered after its commit.")
final class ApiBench extends Bench {
    static final String NAMESPACE = "benchapi";
    static final int ROUNDS = 3;

    /**
     * The JIT still compiles the broker's, the server's and the clients' code for most of a minute
     * after start (measured: compiler threads took 2 of 17 CPU seconds 55 s in): rounds before that
     * measure the compiler. With 40 s, round 1 ran 25-35% below round 3 on every run of 2026-12-07
     * (14,601 vs 22,306/s), so the warm-up is a minute, and it records latencies as the rounds do
     * (the same compiled code).
     */
    static final int WARM_UP_SECONDS = 60;

    static final String KEY = "bench-api-key";

    @Option(
            names = "--clients",
            paramLabel = "C",
            description = "HTTP clients (default ${DEFAULT-VALUE}).")
    int clients = 128;

    @Option(
            names = "--seconds",
            paramLabel = "S",
            description = "Seconds of each round (default ${DEFAULT-VALUE}).")
    int seconds = 20;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || seconds < 1) {
            throw new io.pushline.common.UsageException("--clients and --seconds must be >= 1");
        }
        BenchResults results = results();
        Path dir = LocalStack.defaultDir().resolve("bench-api");
        String run = UUID.randomUUID().toString().substring(0, 8);
        System.out.printf(
                "bench api: %d clients, %d s warm-up, %d rounds of %d s%n",
                clients, WARM_UP_SECONDS, ROUNDS, seconds);
        try (LocalStack stack =
                        LocalStack.start(dir.resolve("stack"), LocalStack.DEFAULT_START_TIMEOUT);
                Connection hbase =
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(stack.hbaseZkQuorum()))) {
            HBaseTables.ensure(hbase, NAMESPACE);
            Properties kafka = new Properties();
            kafka.setProperty("bootstrap.servers", stack.kafkaBootstrap());
            Map<TopicPartition, Long> start = ends(stack.kafkaBootstrap());
            Map<String, BitSet> answered = new ConcurrentHashMap<>();
            AtomicLong failures = new AtomicLong();
            try (Server server =
                    Server.builder()
                            .reminders(new HBaseReminderStore(hbase, NAMESPACE))
                            .appKey(KEY)
                            // the bench measures commits, not the per-key limit
                            .appRate(Integer.MAX_VALUE)
                            .kafkaWrites(kafka, hbase, NAMESPACE)
                            .build()) {
                int port = server.start("127.0.0.1", 0);
                Load warm =
                        load(
                                port,
                                run + "w",
                                WARM_UP_SECONDS,
                                new long[1 << 23],
                                answered,
                                failures);
                System.out.printf(
                        "  warm-up: %,d pushes in %d s, %,d failed%n",
                        warm.count, WARM_UP_SECONDS, failures.get());
                for (int round = 1; round <= ROUNDS; round++) {
                    long[] latencies = new long[1 << 23];
                    Load l = load(port, run + round, seconds, latencies, answered, failures);
                    int n = (int) Math.min(l.count, latencies.length);
                    long[] sorted = Arrays.copyOf(latencies, n);
                    Arrays.sort(sorted);
                    double perSecond = l.count / (l.elapsedNs / 1e9);
                    double p50 = InboxReaders.percentileMs(sorted, 0.50);
                    double p99 = InboxReaders.percentileMs(sorted, 0.99);
                    System.out.printf(
                            "  round %d: %,d pushes in %.1f s (%.0f/s): p50 %.2f ms, p99 %.2f ms%n",
                            round, l.count, l.elapsedNs / 1e9, perSecond, p50, p99);
                    results.round(
                            BenchResults.figures(
                                    "pushesPerSecond", perSecond, "p50Ms", p50, "p99Ms", p99));
                }
            }
            // the server is closed: its last transaction is committed or aborted
            long[] dm = check(stack.kafkaBootstrap(), start, answered);
            long duplicates = dm[0];
            long missing = dm[1];
            System.out.printf(
                    "  push.requests (read_committed): %,d answered pushes looked for, %,d lines"
                            + " of this run, %,d calls failed%n",
                    count(answered), dm[2], failures.get());
            results.put("clients", clients);
            results.put("answered", count(answered));
            results.put("failures", failures.get());
            results.put("duplicates", duplicates);
            results.put("missing", missing);
            results.write();
            System.out.printf(
                    "api pushes/s %s, p99 %s ms, duplicates %d, missing %d (median of %d rounds,"
                            + " min-max)%n",
                    results.medianAndSpread("pushesPerSecond", "%.0f"),
                    results.medianAndSpread("p99Ms", "%.1f"),
                    duplicates,
                    missing,
                    ROUNDS);
            return failures.get() == 0 && duplicates == 0 && missing == 0 ? 0 : 1;
        }
    }

    private record Load(long count, long elapsedNs) {}

    /**
     * C clients posting pushes for {@code seconds}; each answered push is a bit in {@code answered}
     * (by round and client).
     */
    private Load load(
            int port,
            String round,
            int seconds,
            long[] latencies,
            Map<String, BitSet> answered,
            AtomicLong failures)
            throws Exception {
        PoolingHttpClientConnectionManager pool = new PoolingHttpClientConnectionManager();
        pool.setMaxTotal(clients);
        pool.setDefaultMaxPerRoute(clients);
        AtomicLong count = new AtomicLong();
        CountDownLatch done = new CountDownLatch(clients);
        String url = "http://127.0.0.1:" + port + "/v1/push";
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long t0 = System.nanoTime();
        try (CloseableHttpClient http = HttpClients.custom().setConnectionManager(pool).build()) {
            for (int c = 0; c < clients; c++) {
                int client = c;
                // msgIds are api-ROUND-CLIENT-I: a bit per I, not a map entry per push, so that
                // the bookkeeping does not grow the heap the server's collections must scan
                BitSet mine = new BitSet();
                answered.put(round + "-" + client, mine);
                Thread th =
                        new Thread(
                                () -> {
                                    try {
                                        for (long i = 0; System.nanoTime() < end; i++) {
                                            String msgId = "api-" + round + "-" + client + "-" + i;
                                            long t = System.nanoTime();
                                            if (push(http, url, msgId, client)) {
                                                long dt = System.nanoTime() - t;
                                                mine.set((int) i);
                                                long k = count.getAndIncrement();
                                                if (latencies != null && k < latencies.length) {
                                                    latencies[(int) k] = dt;
                                                }
                                            } else {
                                                failures.incrementAndGet();
                                            }
                                        }
                                    } finally {
                                        done.countDown();
                                    }
                                },
                                "api-client-" + c);
                th.setDaemon(true);
                th.start();
            }
            done.await();
        }
        return new Load(count.get(), System.nanoTime() - t0);
    }

    /** One push; true when the server answered 202. */
    private static boolean push(CloseableHttpClient http, String url, String msgId, int client) {
        HttpPost post = new HttpPost(url);
        post.setHeader("Authorization", "Bearer " + KEY);
        post.setEntity(
                new ByteArrayEntity(
                        ("{\"msgId\":\""
                                        + msgId
                                        + "\",\"msgType\":\"news\",\"title\":\"Goal\",\"body\":\"2-1"
                                        + " in the 89th minute\",\"target\":{\"uids\":[\"u-"
                                        + client
                                        + "\"]}}")
                                .getBytes(StandardCharsets.UTF_8),
                        ContentType.APPLICATION_JSON));
        try (CloseableHttpResponse r = http.execute(post)) {
            EntityUtils.consume(r.getEntity());
            return r.getStatusLine().getStatusCode() == 202;
        } catch (Exception e) {
            return false;
        }
    }

    /** The end offsets of push.requests now (read_committed). */
    private static Map<TopicPartition, Long> ends(String bootstrap) {
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(KafkaIO.committedReader(bootstrap))) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(Topics.PUSH_REQUESTS)
                    .forEach(p -> parts.add(new TopicPartition(p.topic(), p.partition())));
            return c.endOffsets(parts);
        }
    }

    /**
     * Reads push.requests from {@code start} with a read_committed reader (after waiting for the
     * commit markers) and counts each answered msgId: {duplicates, missing, lines of this run}.
     */
    private static long[] check(
            String bootstrap, Map<TopicPartition, Long> start, Map<String, BitSet> answered)
            throws Exception {
        io.pushline.common.CommittedRecords.awaitSettled(
                bootstrap, Topics.PUSH_REQUESTS, java.time.Duration.ofSeconds(30));
        Map<String, BitSet> seen = new HashMap<>();
        long lines = 0;
        long duplicates = 0;
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(KafkaIO.committedReader(bootstrap))) {
            List<TopicPartition> parts = new ArrayList<>(start.keySet());
            c.assign(parts);
            start.forEach(c::seek);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(java.time.Duration.ofMillis(200))) {
                    String msgId = msgId(new String(r.value(), StandardCharsets.UTF_8));
                    if (msgId == null || !msgId.startsWith("api-")) {
                        continue;
                    }
                    int dash = msgId.lastIndexOf('-');
                    String client = msgId.substring(4, dash);
                    int n = Integer.parseInt(msgId.substring(dash + 1));
                    BitSet b = seen.computeIfAbsent(client, k -> new BitSet());
                    if (b.get(n)) {
                        duplicates++;
                    }
                    b.set(n);
                    lines++;
                }
            }
        }
        long missing = 0;
        for (Map.Entry<String, BitSet> e : answered.entrySet()) {
            BitSet wanted = (BitSet) e.getValue().clone();
            BitSet got = seen.get(e.getKey());
            if (got != null) {
                wanted.andNot(got);
            }
            missing += wanted.cardinality();
        }
        return new long[] {duplicates, missing, lines};
    }

    private static long count(Map<String, BitSet> answered) {
        long n = 0;
        for (BitSet b : answered.values()) {
            n += b.cardinality();
        }
        return n;
    }

    private static String msgId(String line) {
        int i = line.indexOf("\"msgId\":\"");
        if (i < 0) {
            return null;
        }
        int from = i + 9;
        int to = line.indexOf('"', from);
        return to < 0 ? null : line.substring(from, to);
    }
}
