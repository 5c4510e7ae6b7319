package io.pushline.common;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM's checks of where its readers stand against the broker, for one Kafka cluster: a thread
 * with its own read_committed consumer that, every {@link #CYCLE_MS} while anyone asks, reads the
 * last stable offsets of the partitions asked about and answers, for each (partition, position)
 * asked, the wall-clock time of the latest check that found nothing committed at or after that
 * position. Between the position and the end there may be only transaction markers or aborted
 * records (a transactional producer leaves a marker behind its last record): the consumer then
 * reads from the position and finds no record. Asking never blocks: the first answer is "not
 * known", the check runs on this thread.
 */
final class LogEndChecker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(LogEndChecker.class);

    /** How often the asked partitions are checked again. */
    static final long CYCLE_MS = 50;

    /** An ask not repeated for this long is dropped (its reader moved on or went away). */
    static final long FORGET_AFTER_MS = 5_000;

    /** How long one poll for the records after a position may wait. */
    private static final Duration POLL = Duration.ofMillis(100);

    /** The client id of the checkers' consumers, which are nobody's reader. */
    static final String CLIENT_ID_PREFIX = "pushline-log-ends-";

    private static final Map<String, LogEndChecker> BY_CLUSTER = new ConcurrentHashMap<>();
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** A reader's question: its partition and the offset after the last record it emitted. */
    record Ask(TopicPartition partition, long next) {}

    private final Properties consumer;
    private final Map<Ask, Long> asked = new ConcurrentHashMap<>();
    private final Map<Ask, Long> verified = new ConcurrentHashMap<>();

    /** Positions found followed by nothing but markers up to the end then: position to end. */
    private final Map<Ask, Long> markersOnly = new HashMap<>();

    /**
     * The last committed record a check read in each partition: a reader whose position is at or
     * before it has records still to emit, which needs no read to know. Without it a reader that
     * lags was checked by seeking its partition 20 times a second, and Kafka's consumer logs every
     * assign and seek (81,000 lines in ten minutes of chaos run 20).
     */
    private final Map<TopicPartition, Long> recordSeen = new HashMap<>();

    private final Object wake = new Object();
    private volatile String lastError = "";

    /**
     * A checker asked nothing for this long ends its thread: it holds the job's class loader, which
     * a TaskManager frees once the job is gone. The next ask starts another.
     */
    static final long IDLE_EXIT_MS = 60_000;

    private final String key;
    private final long idleExitMs;

    /** When a reader last asked (set by the readers' threads, read by the checker's). */
    private volatile long lastAskedAt = now();

    private LogEndChecker(String key, Properties consumer, long idleExitMs) {
        this.key = key;
        this.consumer = consumer;
        this.idleExitMs = idleExitMs;
    }

    /** The checker of the cluster that {@code kafka} (bootstrap and client settings) reaches. */
    static LogEndChecker of(Properties kafka) {
        return of(kafka, IDLE_EXIT_MS);
    }

    static LogEndChecker of(Properties kafka, long idleExitMs) {
        String key = new TreeMap<>(kafka).toString();
        return BY_CLUSTER.computeIfAbsent(
                key,
                k -> {
                    LogEndChecker c = new LogEndChecker(k, consumerProperties(kafka), idleExitMs);
                    Thread t = new Thread(c, "pushline-log-ends-" + THREADS.incrementAndGet());
                    t.setDaemon(true);
                    // Not the asking task's context class loader, which a thread inherits: a job
                    // that ended closes it, and the consumer this thread makes again after a
                    // failure (the broker gone) would then fail for ever, one warning a second,
                    // for a later job of the same JVM asking about the same cluster too.
                    t.setContextClassLoader(LogEndChecker.class.getClassLoader());
                    t.start();
                    return c;
                });
    }

    static Properties consumerProperties(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        // group.id (when given) only to look up the group's committed offsets: this consumer is
        // assigned its partitions, never joins the group, never commits
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        // a batch, not one: the last record read tells how far a lagging reader must get before
        // its partition is worth reading again
        p.put("max.poll.records", "500");
        p.put("fetch.max.wait.ms", "20");
        p.put("client.id", CLIENT_ID_PREFIX + THREADS.get());
        return p;
    }

    /**
     * When a check last found nothing committed in {@code partition} at or after {@code next}
     * (epoch ms, taken before the check read the end), or {@link Long#MIN_VALUE} when none has yet.
     */
    long verifiedAt(TopicPartition partition, long next) {
        Ask a = new Ask(partition, next);
        Long at = verified.get(a);
        lastAskedAt = now();
        if (asked.put(a, now()) == null) {
            synchronized (wake) {
                wake.notifyAll();
            }
        }
        return at == null ? Long.MIN_VALUE : at;
    }

    String describe() {
        return "asked " + asked.keySet() + ", verified " + verified + lastError;
    }

    @Override
    public void run() {
        while (true) {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumer)) {
                while (true) {
                    waitForAsks();
                    if (asked.isEmpty() && exitIfIdle()) {
                        return;
                    }
                    check(c);
                    lastError = "";
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // the broker may be down: nothing is verified meanwhile, so nothing advances
                verified.clear();
                lastError = ", last check failed: " + e;
                LOG.warn("Checking where the input partitions end failed: {}", e.toString());
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException stop) {
                    return;
                }
                // failing is no reason to stay: with nobody asking (the job gone), end
                if (exitIfIdle()) {
                    return;
                }
            }
        }
    }

    /** Leaves the clusters' map when nobody asked for {@link #idleExitMs}; true: end the thread. */
    private boolean exitIfIdle() {
        if (now() - lastAskedAt <= idleExitMs) {
            return false;
        }
        BY_CLUSTER.remove(key, this);
        return true;
    }

    private void waitForAsks() throws InterruptedException {
        synchronized (wake) {
            wake.wait(asked.isEmpty() ? 1_000 : CYCLE_MS);
        }
        long now = now();
        asked.values().removeIf(at -> now - at > FORGET_AFTER_MS);
        verified.keySet().retainAll(asked.keySet());
        markersOnly.keySet().retainAll(asked.keySet());
        Set<TopicPartition> askedPartitions =
                asked.keySet().stream().map(Ask::partition).collect(Collectors.toSet());
        recordSeen.keySet().retainAll(askedPartitions);
    }

    private void check(KafkaConsumer<byte[], byte[]> c) {
        List<Ask> asks = new ArrayList<>(asked.keySet());
        if (asks.isEmpty()) {
            return;
        }
        Set<TopicPartition> partitions =
                asks.stream().map(Ask::partition).collect(Collectors.toSet());
        // Taken before the ends are read: whatever was committed before this moment is at or
        // before the end read, so a reader past it has emitted everything written until then.
        long checkedAt = System.currentTimeMillis();
        Map<TopicPartition, Long> ends = c.endOffsets(partitions, Duration.ofSeconds(5));
        Map<Ask, Long> starts = starts(c, asks);
        for (Ask a : asks) {
            Long end = ends.get(a.partition());
            Long position = a.next() >= 0 ? Long.valueOf(a.next()) : starts.get(a);
            if (end == null || position == null) {
                continue;
            }
            if (end <= position || onlyMarkersUpTo(c, a, position, end)) {
                verified.put(a, checkedAt);
            } else {
                verified.remove(a);
            }
        }
    }

    /**
     * Where the splits asked about with a starting-offset marker instead of a position start: the
     * group's committed offset for "committed" (its reset strategy is earliest), else the log's
     * first offset. For "latest" that is less than where such a reader started, so its partition
     * counts as read to its end only when nothing is committed in it at all: waiting longer is
     * safe, advancing early is not.
     */
    private Map<Ask, Long> starts(KafkaConsumer<byte[], byte[]> c, List<Ask> asks) {
        List<Ask> marked = asks.stream().filter(a -> a.next() < 0).toList();
        if (marked.isEmpty()) {
            return Map.of();
        }
        Set<TopicPartition> partitions =
                marked.stream().map(Ask::partition).collect(Collectors.toSet());
        Map<TopicPartition, Long> first = c.beginningOffsets(partitions, Duration.ofSeconds(5));
        Map<TopicPartition, OffsetAndMetadata> committed = Map.of();
        if (consumer.getProperty("group.id") != null
                && marked.stream()
                        .anyMatch(a -> a.next() == KafkaPartitionSplit.COMMITTED_OFFSET)) {
            committed = c.committed(partitions, Duration.ofSeconds(5));
        }
        Map<Ask, Long> out = new HashMap<>();
        for (Ask a : marked) {
            OffsetAndMetadata group = committed.get(a.partition());
            Long start =
                    a.next() == KafkaPartitionSplit.COMMITTED_OFFSET && group != null
                            ? Long.valueOf(group.offset())
                            : first.get(a.partition());
            if (start != null) {
                out.put(a, start);
            }
        }
        return out;
    }

    /**
     * Whether {@code a}'s partition holds no committed record from {@code position} up to {@code
     * end}.
     */
    private boolean onlyMarkersUpTo(
            KafkaConsumer<byte[], byte[]> c, Ask a, long position, long end) {
        Long known = markersOnly.get(a);
        if (known != null && known == end) {
            return true;
        }
        TopicPartition tp = a.partition();
        Long seen = recordSeen.get(tp);
        if (seen != null && seen >= position) {
            return false; // the reader has records still to emit
        }
        if (!c.assignment().equals(Set.of(tp))) {
            c.assign(List.of(tp));
        }
        c.seek(tp, position);
        for (int i = 0; i < 3; i++) {
            ConsumerRecords<byte[], byte[]> records = c.poll(POLL);
            if (!records.isEmpty()) {
                List<ConsumerRecord<byte[], byte[]>> read = records.records(tp);
                if (!read.isEmpty()) {
                    recordSeen.put(tp, read.get(read.size() - 1).offset());
                }
                return false; // the reader has records still to emit
            }
            if (c.position(tp) >= end) {
                markersOnly.put(a, end);
                return true;
            }
        }
        return false;
    }

    private static long now() {
        return System.nanoTime() / 1_000_000;
    }
}
