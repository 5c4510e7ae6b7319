package io.pushline.common;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka partitions one source reader (one subtask of a source) was given, each with the offset
 * its reading started from, and which of them have emitted a record yet. Flink gives a split's
 * watermark generator no way to tell which split it watches until a record arrives, and right after
 * a start or a restore no generator has seen one; what such a generator may assume is what holds
 * for every partition of its reader that has emitted nothing: read to its end from where it
 * started.
 *
 * <p>The reader ({@link SplitTrackingSource}) and the generators ({@link IdleAdvancingWatermarks})
 * find each other through the metric group Flink hands both, the same object for one reader.
 */
public final class ReaderSplits {
    private static final Map<Object, ReaderSplits> BY_READER = new IdentityHashMap<>();

    private final Map<TopicPartition, Long> starts = new ConcurrentHashMap<>();
    private final Set<TopicPartition> emitted = ConcurrentHashMap.newKeySet();
    private volatile boolean tracked;
    private final AtomicBoolean readerOutputMade = new AtomicBoolean();

    /** The splits of the reader whose metric group is {@code readerMetricGroup}. */
    static ReaderSplits of(Object readerMetricGroup) {
        synchronized (BY_READER) {
            return BY_READER.computeIfAbsent(readerMetricGroup, g -> new ReaderSplits());
        }
    }

    /** The reader closed: its generators keep their own reference. */
    static void forget(Object readerMetricGroup) {
        synchronized (BY_READER) {
            BY_READER.remove(readerMetricGroup);
        }
    }

    /**
     * Whether the generator being made is the reader's first: Flink makes the generator of the
     * reader's own output before any split's (when the reader's output is set up; splits assigned
     * before then wait for it). That output's watermarks go downstream as they are, not as the
     * least of the splits', so its generator must never follow the wall clock on its own.
     */
    boolean firstGenerator() {
        return readerOutputMade.compareAndSet(false, true);
    }

    /** A {@link SplitTrackingSource} reader reports here: what it says is all it reads. */
    void tracked() {
        tracked = true;
    }

    /** Whether a {@link SplitTrackingSource} reader reports here. */
    boolean isTracked() {
        return tracked;
    }

    /**
     * Splits given to the reader, each with its starting offset (a Kafka offset, or one of the
     * connector's markers for earliest, latest and committed).
     */
    void added(Map<TopicPartition, Long> splits) {
        starts.putAll(splits);
    }

    /** A generator emitted the partition's first record: its position is its own from now on. */
    void firstRecord(TopicPartition partition) {
        emitted.add(partition);
    }

    /** The reader's partitions that have emitted nothing yet, with where they started. */
    Map<TopicPartition, Long> withoutRecords() {
        Map<TopicPartition, Long> out = new HashMap<>(starts);
        out.keySet().removeAll(emitted);
        return out;
    }
}
