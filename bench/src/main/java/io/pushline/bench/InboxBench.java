package io.pushline.bench;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.common.UsageException;
import io.pushline.inbox.InboxCache;
import io.pushline.inbox.InboxStore;
import io.pushline.local.LocalStack;
import io.pushline.serve.HBaseReminderStore;
import io.pushline.serve.InboxChangeFeed;
import io.pushline.serve.ServeOptions;
import io.pushline.serve.Server;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.configuration.MemorySize;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.RoaringBitmap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline bench inbox [--users N] [--messages-per-user M] [--broadcasts B] [--clients C]
 * [--seconds S] [--cache SIZE]}: N users (default 1,000,000) with M personal messages each on
 * average (default 30, drawn from a catalog of 3,000) and B broadcasts (default 20) to audiences of
 * 100,000 to 1,000,000, in the embedded HBase; then {@code pushline serve}'s inbox API in this JVM,
 * and C client threads (default 8, Apache HttpClient, HTTP/1.1 kept alive) reading random users'
 * first pages for S seconds (default 30, after 20 s of warm-up), first cold (tables flushed, no
 * inbox cache, each user read at most once) and then warm (the server's cache filled) in three
 * rounds of S seconds, whose median and spread the last line gives. Measured: reads per second,
 * p50/p99 latency as the clients see it, failed requests, bytes stored per user (their rows), and
 * the rows a broadcast writes for a 10,000- and a 1,000,000-member audience. Exits 1 when any
 * request failed.
 */
@Command(
        name = "inbox",
        mixinStandardHelpOptions = true,
        description = "Inbox first-page reads over HTTP, cold and warm.")
final class InboxBench extends Bench {
    static final String NAMESPACE = "benchinbox";
    static final int CATALOG = 3_000;

    /** Warm rounds of {@code --seconds} each; the last line gives their median and spread. */
    static final int ROUNDS = 3;

    @Option(names = "--users", paramLabel = "N", description = "Users (default ${DEFAULT-VALUE}).")
    int users = 1_000_000;

    @Option(
            names = "--messages-per-user",
            paramLabel = "M",
            description = "Messages a user (default ${DEFAULT-VALUE}).")
    int perUser = 30;

    @Option(
            names = "--broadcasts",
            paramLabel = "B",
            description = "Broadcast messages (default ${DEFAULT-VALUE}).")
    int broadcasts = 20;

    @Option(
            names = "--clients",
            paramLabel = "C",
            description = "HTTP clients (default ${DEFAULT-VALUE}).")
    int clients = 8;

    @Option(
            names = "--seconds",
            paramLabel = "S",
            description = "Seconds of the warm phase (default ${DEFAULT-VALUE}).")
    int seconds = 30;

    @Option(
            names = "--cache",
            paramLabel = "SIZE",
            description = "The server's inbox cache, e.g. 512m (0: off; default serve's).")
    String cache;

    @Override
    public Integer call() throws Exception {
        positive("--users", users);
        positive("--messages-per-user", perUser);
        positive("--broadcasts", broadcasts);
        positive("--clients", clients);
        positive("--seconds", seconds);
        long cacheBytes =
                cache == null
                        ? ServeOptions.INBOX_CACHE.defaultValue().getBytes()
                        : memory("--cache", cache);
        BenchResults results = results();
        Path dir = LocalStack.defaultDir().resolve("bench-inbox");
        System.out.printf(
                "bench inbox: %,d users x %d messages on average, %d broadcasts, %d clients for %d"
                        + " s%n",
                users, perUser, broadcasts, clients, seconds);
        try (LocalStack stack =
                        LocalStack.start(dir.resolve("stack"), LocalStack.DEFAULT_START_TIMEOUT);
                Connection hbase =
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(stack.hbaseZkQuorum()))) {
            HBaseTables.ensure(hbase, NAMESPACE);
            long now = System.currentTimeMillis();
            InboxStore writer =
                    new InboxStore(
                            hbase, NAMESPACE, Duration.ofDays(90), System::currentTimeMillis);

            long t = System.nanoTime();
            List<String> uids = new ArrayList<>(users);
            for (int u = 0; u < users; u++) {
                uids.add(uid(u));
            }
            try (IdDictionary dict = new IdDictionary(hbase, NAMESPACE, 10_000)) {
                for (int from = 0; from < users; from += 10_000) {
                    dict.assignAll(uids.subList(from, Math.min(users, from + 10_000)));
                }
            }
            int[] catalog = new int[CATALOG];
            for (int m = 0; m < CATALOG; m++) {
                catalog[m] =
                        writer.store(
                                "msg-" + m,
                                "Title of message " + m,
                                "The body of message " + m + ", a sentence or two long.",
                                now - 80L * 86_400_000L * (CATALOG - m) / CATALOG);
            }
            SplittableRandom rnd = new SplittableRandom(42);
            long personal = 0;
            for (int from = 0; from < users; from += 10_000) {
                Map<String, RoaringBitmap> batch = new HashMap<>();
                for (int u = from; u < Math.min(users, from + 10_000); u++) {
                    RoaringBitmap sent = new RoaringBitmap();
                    int n = rnd.nextInt(2 * perUser + 1); // mean perUser
                    for (int k = 0; k < n; k++) {
                        sent.add(catalog[rnd.nextInt(CATALOG)]);
                    }
                    personal += sent.getCardinality();
                    batch.put(uid(u), sent);
                }
                writer.load(batch);
            }
            System.out.printf(
                    "  %,d users with %,d personal messages (%.1f each) from %,d stored once, in"
                            + " %.1f s%n",
                    users, personal, (double) personal / users, CATALOG, secs(t));

            t = System.nanoTime();
            long small =
                    broadcastRows(
                            hbase, writer, "broadcast-small", sample(rnd, users, 10_000), now);
            long large =
                    broadcastRows(
                            hbase,
                            writer,
                            "broadcast-large",
                            sample(rnd, users, Math.min(users, 1_000_000)),
                            now);
            long members = 0;
            for (int b = 0; b < broadcasts - 2; b++) {
                int size = Math.min(users, 100_000 + rnd.nextInt(900_001));
                members += size;
                writer.broadcast(
                        "broadcast-" + b,
                        "Broadcast " + b,
                        "To many",
                        now - b * 3_600_000L,
                        sample(rnd, users, size));
            }
            System.out.printf(
                    "  %d broadcasts (%,d members besides the two measured) in %.1f s; rows written:"
                            + " 10,000 members %d, %,d members %d%n",
                    broadcasts, members, secs(t), small, Math.min(users, 1_000_000), large);
            long[] stored = userBytes(hbase);
            double bytesPerUser = (double) stored[1] / users;
            System.out.printf(
                    "  stored: %,d inbox rows, %,d bytes = %.1f bytes per user%n",
                    stored[0], stored[1], bytesPerUser);

            Properties kafka = new Properties();
            kafka.setProperty("bootstrap.servers", stack.kafkaBootstrap());
            Cold cold = coldReads(hbase, stack.hbaseZkQuorum(), kafka, users, clients, seconds);
            InboxStore served =
                    new InboxStore(
                            hbase, NAMESPACE, Duration.ofDays(90), System::currentTimeMillis);
            try (Server server = server(hbase, kafka, served);
                    InboxChangeFeed feed =
                            cacheBytes == 0
                                    ? null
                                    : InboxChangeFeed.attach(kafka, served, cacheBytes)) {
                InboxCache cache = feed == null ? null : feed.cache();
                int port = server.start("127.0.0.1", 0);
                if (feed != null) {
                    t = System.nanoTime();
                    feed.start();
                    feed.awaitReady(Duration.ofDays(1));
                    System.out.printf(
                            "  inbox cache (serve.inbox.cache %s) filled: %,d inboxes, %,d bytes"
                                    + " (%.1f per inbox) in %.1f s%n",
                            new MemorySize(cacheBytes).toHumanReadableString(),
                            cache.size(),
                            cache.bytes(),
                            (double) cache.bytes() / Math.max(1, cache.size()),
                            secs(t));
                } else {
                    System.out.println("  inbox cache off: every read is an HBase get");
                }
                // The warm reads in rounds of S seconds each, so that the last line can say how
                // much the figure moves between rounds on this machine (median and min-max).
                System.out.printf(
                        "  warm-up 20 s, then %d rounds of %d s of first-page reads%n",
                        ROUNDS, seconds);
                InboxReaders.load(port, InboxReaders.randomUsers(users), clients, 20, null);
                long errors = cold.failures;
                for (int round = 1; round <= ROUNDS; round++) {
                    long[] latencies = new long[1 << 24];
                    AtomicLong count = new AtomicLong();
                    InboxReaders.Load warm =
                            InboxReaders.load(
                                    port,
                                    InboxReaders.randomUsers(users),
                                    clients,
                                    seconds,
                                    new InboxReaders.Sink(latencies, count));
                    errors += warm.failures();
                    int n = (int) Math.min(count.get(), latencies.length);
                    long[] sorted = Arrays.copyOf(latencies, n);
                    Arrays.sort(sorted);
                    double readsPerSecond = count.get() / (warm.elapsedNs() / 1e9);
                    double p50 = InboxReaders.percentileMs(sorted, 0.50);
                    double p99 = InboxReaders.percentileMs(sorted, 0.99);
                    System.out.printf(
                            "  warm round %d: %,d reads in %.1f s by %d clients: p50 %.2f ms, p99"
                                    + " %.2f ms, %,d failed%n",
                            round,
                            count.get(),
                            warm.elapsedNs() / 1e9,
                            clients,
                            p50,
                            p99,
                            warm.failures());
                    results.round(
                            BenchResults.figures(
                                    "readsPerSecond", readsPerSecond,
                                    "p50Ms", p50,
                                    "p99Ms", p99,
                                    "errors", warm.failures()));
                }
                if (cache != null) {
                    System.out.printf(
                            "  inbox cache: %,d hits, %,d misses%n", cache.hits(), cache.misses());
                }
                results.put("coldReadsPerSecond", cold.readsPerSecond());
                results.put("coldP50Ms", cold.p50Ms());
                results.put("coldP99Ms", cold.p99Ms());
                results.put("errors", errors);
                results.put("bytesPerUser", bytesPerUser);
                results.put("broadcastRowsSmall", small);
                results.put("broadcastRowsLarge", large);
                results.put("users", users);
                results.put("clients", clients);
                results.write();
                System.out.printf(
                        "inbox reads/s %s (cold %.0f), p99 %s ms (cold %.1f ms), errors %d,"
                                + " bytes per user %.1f, broadcast rows small/large %d/%d (warm:"
                                + " median of %d rounds, min-max)%n",
                        results.medianAndSpread("readsPerSecond", "%.0f"),
                        cold.readsPerSecond(),
                        results.medianAndSpread("p99Ms", "%.1f"),
                        cold.p99Ms(),
                        errors,
                        bytesPerUser,
                        small,
                        large,
                        ROUNDS);
                if (errors > 0) {
                    System.err.println("bench inbox: " + errors + " requests failed");
                    return 1;
                }
            }
            writer.close();
        }
        return 0;
    }

    /** The cold phase's figures and its failed requests. */
    record Cold(double readsPerSecond, double p50Ms, double p99Ms, long failures) {}

    /**
     * Cold reads: the tables flushed (nothing of the inboxes in HBase's memstore), a server with no
     * inbox cache, and every client reading users nobody has read yet, each at most once, so every
     * read goes to HBase and most find their blocks outside its block cache, as the first reads
     * after a restart do. Until 2026-11-27 the benchmark only measured reads from a filled cache.
     */
    private static Cold coldReads(
            Connection hbase,
            String zkQuorum,
            Properties kafka,
            int users,
            int clients,
            int seconds)
            throws Exception {
        try (Admin admin = hbase.getAdmin()) {
            for (TableName table : admin.listTableNamesByNamespace(NAMESPACE)) {
                admin.flush(table);
            }
        }
        // A connection of its own: closing the server closes the connection it was given.
        Connection own = ConnectionFactory.createConnection(HBaseTables.clientConf(zkQuorum));
        InboxStore store =
                new InboxStore(own, NAMESPACE, Duration.ofDays(90), System::currentTimeMillis);
        try (own;
                Server server = server(own, kafka, store)) {
            int port = server.start("127.0.0.1", 0);
            int[] order = new int[users];
            for (int u = 0; u < users; u++) {
                order[u] = u;
            }
            SplittableRandom rnd = new SplittableRandom(7);
            for (int u = users - 1; u > 0; u--) {
                int j = rnd.nextInt(u + 1);
                int x = order[u];
                order[u] = order[j];
                order[j] = x;
            }
            AtomicInteger next = new AtomicInteger();
            InboxReaders.UserPicker once =
                    r -> {
                        int i = next.getAndIncrement();
                        return i < users ? order[i] : -1;
                    };
            long[] latencies = new long[users];
            AtomicLong count = new AtomicLong();
            InboxReaders.Load load =
                    InboxReaders.load(
                            port,
                            () -> once,
                            clients,
                            seconds,
                            new InboxReaders.Sink(latencies, count));
            int n = (int) Math.min(count.get(), latencies.length);
            long[] sorted = Arrays.copyOf(latencies, n);
            Arrays.sort(sorted);
            Cold cold =
                    new Cold(
                            count.get() / (load.elapsedNs() / 1e9),
                            InboxReaders.percentileMs(sorted, 0.50),
                            InboxReaders.percentileMs(sorted, 0.99),
                            load.failures());
            System.out.printf(
                    "  cold (tables flushed, no inbox cache, each user read once): %,d reads in"
                            + " %.1f s by %d clients: %.0f reads/s, p50 %.2f ms, p99 %.2f ms, %,d"
                            + " failed%n",
                    count.get(),
                    load.elapsedNs() / 1e9,
                    clients,
                    cold.readsPerSecond(),
                    cold.p50Ms(),
                    cold.p99Ms(),
                    load.failures());
            return cold;
        }
    }

    /** {@code pushline serve}'s server over {@code store}, as the benchmark runs it. */
    private static Server server(Connection hbase, Properties kafka, InboxStore store)
            throws Exception {
        // as many calls a second as the clients can make: the bench measures reads, not the limit
        return Server.builder()
                .reminders(new HBaseReminderStore(hbase, NAMESPACE))
                .inbox(store, null)
                .appKey(InboxReaders.KEY)
                .appRate(Integer.MAX_VALUE)
                .build();
    }

    /** The rows of the inbox tables a broadcast to {@code audience} adds. */
    private static long broadcastRows(
            Connection hbase, InboxStore writer, String msgId, IdSet audience, long now)
            throws Exception {
        long before = broadcastTables(hbase, writer);
        writer.broadcast(msgId, msgId, "", now, audience);
        return broadcastTables(hbase, writer) - before;
    }

    /** Rows a broadcast may write: messages, broadcasts, audience chunks, the msgId dictionary. */
    private static long broadcastTables(Connection hbase, InboxStore writer) throws Exception {
        long n = writer.rows("a:") + writer.rows("b:") + writer.rows("m:");
        try (Table t = hbase.getTable(TableName.valueOf(NAMESPACE, HBaseTables.INBOX_IDS));
                ResultScanner rs = t.getScanner(new Scan().setFilter(new KeyOnlyFilter()))) {
            for (Result ignored : rs) {
                n++;
            }
        }
        return n;
    }

    /** Rows and bytes (cells as HBase stores them: key and value) of the users' inbox rows. */
    private static long[] userBytes(Connection hbase) throws Exception {
        long rows = 0;
        long bytes = 0;
        try (Table t = hbase.getTable(TableName.valueOf(NAMESPACE, HBaseTables.INBOX));
                ResultScanner rs =
                        t.getScanner(
                                new Scan()
                                        .setRowPrefixFilter(Bytes.toBytes("u:"))
                                        .setCaching(1_000))) {
            for (Result r : rs) {
                rows++;
                for (Cell c : r.rawCells()) {
                    bytes += c.getSerializedSize();
                }
            }
        }
        return new long[] {rows, bytes};
    }

    private static IdSet sample(SplittableRandom rnd, int users, int size) {
        RoaringBitmap b = new RoaringBitmap();
        if (size * 2 > users) {
            b.add(0L, users);
            while (b.getCardinality() > size) {
                b.remove(rnd.nextInt(users));
            }
        } else {
            while (b.getCardinality() < size) {
                b.add(rnd.nextInt(users));
            }
        }
        return IdSet.wrap(b);
    }

    static String uid(int u) {
        return "user-" + u;
    }

    private static double secs(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new UsageException(name + " takes a positive number");
        }
    }

    private static long memory(String name, String value) {
        try {
            return MemorySize.parse(value).getBytes();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new UsageException(name + " takes a size such as 1g or 512m (0: off)");
        }
    }
}
