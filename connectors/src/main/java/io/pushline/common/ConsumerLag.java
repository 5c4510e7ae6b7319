package io.pushline.common;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * How far this JVM's Kafka consumers are behind the end of each partition they read, as they report
 * it themselves ({@code records-lag}, per partition, over JMX): the distance from the consumer's
 * position to the last stable offset, so commit markers and aborted records do not count as lag.
 * Flink's Kafka source reads each split with such a consumer in the TaskManager's JVM. The figure
 * is as old as the consumer's last fetch, and a backpressured fetcher does not fetch: {@link
 * BrokerLogEnds} asks the broker for a reader whose position is known, and uses these figures only
 * for a reader that has not seen a record yet (every partition the JVM reads at its end).
 *
 * <p>A partition no consumer has fetched yet has no figure: unknown, never "caught up".
 */
public final class ConsumerLag implements LogEnds {
    private static final long serialVersionUID = 1L;

    /** How old the JVM's shared reading may be: every reader of a TaskManager asks each 50 ms. */
    static final long REFRESH_MS = 50;

    private static final String PATTERN =
            "kafka.consumer:type=consumer-fetch-manager-metrics,client-id=*,topic=*,partition=*";

    private static final Object LOCK = new Object();
    private static Map<String, Double> lags = Map.of();
    private static long readAt = Long.MIN_VALUE;

    private final long refreshMs;

    public ConsumerLag() {
        this(REFRESH_MS);
    }

    /**
     * @param refreshMs how old a reading may be before the consumers are asked again
     */
    public ConsumerLag(long refreshMs) {
        this.refreshMs = refreshMs;
    }

    /** Position-blind: whether the JVM's consumers of the partition report no lag. */
    @Override
    public long endVerifiedAt(String topic, int partition, long next) {
        return caughtUp(topic, partition) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    /** Whether this JVM's consumers of the partition report it read to its end. */
    public boolean caughtUp(String topic, int partition) {
        Double lag = snapshot(refreshMs).get(topic + "/" + partition);
        return lag != null && lag <= 0;
    }

    @Override
    public boolean allCaughtUp(Collection<String> topics) {
        boolean any = false;
        for (Map.Entry<String, Double> e : snapshot(refreshMs).entrySet()) {
            String key = e.getKey();
            if (topics.contains(key.substring(0, key.lastIndexOf('/')))) {
                if (!(e.getValue() <= 0)) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }

    /** What the JVM's consumers report: "topic/partition" to lag. */
    @Override
    public String describe() {
        return snapshot(refreshMs).toString();
    }

    /** Partition ("topic/partition") to its largest lag over the JVM's consumers. */
    private static Map<String, Double> snapshot(long refreshMs) {
        synchronized (LOCK) {
            long now = System.nanoTime() / 1_000_000;
            if (readAt != Long.MIN_VALUE && now - readAt < refreshMs) {
                return lags;
            }
            lags = read(ManagementFactory.getPlatformMBeanServer());
            readAt = now;
            return lags;
        }
    }

    static Map<String, Double> read(MBeanServer server) {
        Map<String, Double> out = new HashMap<>();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName(PATTERN), null);
            for (ObjectName n : names) {
                String client = n.getKeyProperty("client-id");
                if (client != null && client.startsWith(LogEndChecker.CLIENT_ID_PREFIX)) {
                    continue; // not a reader: the broker's log ends are its question
                }
                Object v;
                try {
                    v = server.getAttribute(n, "records-lag");
                } catch (Exception gone) {
                    continue; // the consumer closed meanwhile
                }
                double lag = v instanceof Number ? ((Number) v).doubleValue() : Double.NaN;
                // NaN (not measured yet) must read as "not caught up": keep it as +infinity
                double value = Double.isNaN(lag) ? Double.POSITIVE_INFINITY : lag;
                out.merge(
                        n.getKeyProperty("topic") + "/" + n.getKeyProperty("partition"),
                        value,
                        Math::max);
            }
        } catch (Exception e) {
            return Map.of();
        }
        return out;
    }
}
