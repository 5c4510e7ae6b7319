package io.pushline.serve;

import io.pushline.inbox.InboxCache;
import io.pushline.inbox.InboxStore;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.inbox.InboxChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills an {@link InboxCache} and keeps it fresh from {@code inbox.changes}, on a thread of its
 * own: it takes the topic's end offsets, scans every inbox row into the cache, reads the notices
 * written meanwhile (each uid's row is read again from HBase), and only then turns the cache on;
 * from then on each notice refreshes its uid's row, so a change the dispatch job wrote is served a
 * moment later. If the feed fails (Kafka unreachable, the topic missing) the cache is turned off,
 * inboxes are read from HBase, and it starts again after {@link #RETRY}.
 */
public final class InboxChangeFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InboxChangeFeed.class);

    static final Duration RETRY = Duration.ofSeconds(5);

    /** Rows read from HBase in one batch. */
    private static final int BATCH = 1_000;

    private final Properties kafka;
    private final InboxStore store;
    private final InboxCache cache;
    private final Thread thread;
    private final AtomicLong changes = new AtomicLong();
    private final AtomicLong messagesForgotten = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile KafkaConsumer<String, String> consumer;
    private volatile long lagMs;
    private volatile boolean closed;

    /**
     * A cache of {@code maxBytes} read by {@code store}, and the feed that fills it (not started).
     */
    public static InboxChangeFeed attach(Properties kafka, InboxStore store, long maxBytes) {
        InboxCache cache = new InboxCache(maxBytes);
        store.cacheIn(cache);
        return new InboxChangeFeed(kafka, store, cache);
    }

    private InboxChangeFeed(Properties kafka, InboxStore store, InboxCache cache) {
        this.kafka = kafka;
        this.store = store;
        this.cache = cache;
        this.thread = new Thread(this::run, "inbox-change-feed");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    public InboxCache cache() {
        return cache;
    }

    /**
     * Waits until the cache answers (the scan and the catch-up are done); false when {@code wait}
     * passed first.
     */
    public synchronized boolean awaitReady(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!cache.on()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private synchronized void turnOn() {
        cache.turnOn();
        notifyAll();
    }

    private void run() {
        while (!closed) {
            try {
                follow();
            } catch (WakeupException e) {
                // closed
            } catch (Exception e) {
                cache.turnOff();
                if (closed) {
                    return;
                }
                failures.incrementAndGet();
                LOG.warn(
                        "inbox cache off, inboxes are read from HBase: {} (again in {} s)",
                        e.toString(),
                        RETRY.toSeconds());
                try {
                    TimeUnit.MILLISECONDS.sleep(RETRY.toMillis());
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    private void follow() throws Exception {
        try (KafkaConsumer<String, String> c = consumer()) {
            consumer = c;
            if (closed) {
                return;
            }
            List<PartitionInfo> infos =
                    c.partitionsFor(Topics.INBOX_CHANGES, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + Topics.INBOX_CHANGES + " not found");
            }
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : infos) {
                parts.add(new TopicPartition(p.topic(), p.partition()));
            }
            c.assign(parts);
            c.seekToEnd(parts);
            parts.forEach(c::position); // fixed now: every change after this is read below
            long t0 = System.nanoTime();
            long scanned = store.scanRows((uid, row) -> !closed && cache.offer(uid, row));
            LOG.info(
                    "inbox cache: {} rows scanned in {} s, {} of {} bytes",
                    scanned,
                    String.format("%.1f", (System.nanoTime() - t0) / 1e9),
                    cache.bytes(),
                    cache.maxBytes());
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (!closed && parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                apply(c.poll(Duration.ofMillis(200)));
            }
            turnOn();
            LOG.info("inbox cache on: {} inboxes", cache.size());
            while (!closed) {
                apply(c.poll(Duration.ofMillis(100)));
            }
        } finally {
            consumer = null;
        }
    }

    private void apply(ConsumerRecords<String, String> records) throws Exception {
        if (records.isEmpty()) {
            lagMs = 0;
            return;
        }
        Set<String> uids = new LinkedHashSet<>();
        long newest = Long.MIN_VALUE;
        for (ConsumerRecord<String, String> r : records) {
            if (r.key() != null && !r.key().isEmpty()) {
                uids.add(r.key());
            } else {
                forgetMessage(r.value());
            }
            newest = Math.max(newest, r.timestamp());
        }
        List<String> batch = new ArrayList<>(Math.min(BATCH, uids.size()));
        for (String uid : uids) {
            batch.add(uid);
            if (batch.size() == BATCH) {
                refresh(batch);
            }
        }
        refresh(batch);
        changes.addAndGet(records.count());
        lagMs = Math.max(0, System.currentTimeMillis() - newest);
    }

    /** A message's notice (empty key): its entry changed, so the cached copy goes. */
    private void forgetMessage(String value) {
        try {
            InboxChange c = Json.read(value, InboxChange.class);
            if (c.msg != null) {
                store.forgetMessage(c.msg);
                messagesForgotten.incrementAndGet();
            }
        } catch (RuntimeException e) {
            LOG.warn("unreadable notice on inbox.changes skipped: {}", e.toString());
        }
    }

    private void refresh(List<String> uids) throws Exception {
        if (uids.isEmpty()) {
            return;
        }
        List<InboxCache.Row> rows = store.rows(uids);
        for (int i = 0; i < uids.size(); i++) {
            cache.refresh(uids.get(i), rows.get(i));
        }
        uids.clear();
    }

    private KafkaConsumer<String, String> consumer() {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "latest");
        return new KafkaConsumer<>(p);
    }

    /** The cache's and the feed's figures in Prometheus' text format. */
    public String prometheus() {
        return "# TYPE pushline_inbox_cache_on gauge\n"
                + "pushline_inbox_cache_on "
                + (cache.on() ? 1 : 0)
                + "\n# TYPE pushline_inbox_cache_rows gauge\n"
                + "pushline_inbox_cache_rows "
                + cache.size()
                + "\n# TYPE pushline_inbox_cache_bytes gauge\n"
                + "pushline_inbox_cache_bytes "
                + cache.bytes()
                + "\n# TYPE pushline_inbox_cache_hits_total counter\n"
                + "pushline_inbox_cache_hits_total "
                + cache.hits()
                + "\n# TYPE pushline_inbox_cache_misses_total counter\n"
                + "pushline_inbox_cache_misses_total "
                + cache.misses()
                + "\n# TYPE pushline_inbox_changes_total counter\n"
                + "pushline_inbox_changes_total "
                + changes.get()
                + "\n# TYPE pushline_inbox_changes_lag_ms gauge\n"
                + "pushline_inbox_changes_lag_ms "
                + lagMs
                + "\n# TYPE pushline_inbox_messages_forgotten_total counter\n"
                + "pushline_inbox_messages_forgotten_total "
                + messagesForgotten.get()
                + "\n# TYPE pushline_inbox_feed_failures_total counter\n"
                + "pushline_inbox_feed_failures_total "
                + failures.get()
                + "\n";
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        KafkaConsumer<String, String> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        // not interrupted: Kafka's consumer fails its close then; the scan stops at the next row
        thread.join(30_000);
    }
}
