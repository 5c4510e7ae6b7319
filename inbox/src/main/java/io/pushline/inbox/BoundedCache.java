package io.pushline.inbox;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cache of immutable values (messages, broadcast audiences) that many threads read at once: a
 * concurrent map, no lock on a hit. When its weight passes the bound, about a quarter of the
 * entries go, whichever the map iterates first: a miss costs one batched read.
 */
final class BoundedCache<K, V> {
    private final long maxWeight;
    private final ConcurrentHashMap<K, V> values = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<K, Long> weights = new ConcurrentHashMap<>();
    private final AtomicLong weight = new AtomicLong();

    BoundedCache(long maxWeight) {
        this.maxWeight = maxWeight;
    }

    V get(K key) {
        return values.get(key);
    }

    boolean containsKey(K key) {
        return values.containsKey(key);
    }

    void remove(K key) {
        Long w = weights.remove(key);
        if (w != null) {
            values.remove(key);
            weight.addAndGet(-w);
        }
    }

    void put(K key, V value, long w) {
        if (values.putIfAbsent(key, value) == null) {
            weights.put(key, w);
            if (weight.addAndGet(w) > maxWeight) {
                shrink();
            }
        }
    }

    private synchronized void shrink() {
        long target = maxWeight - maxWeight / 4;
        for (K k : values.keySet()) {
            if (weight.get() <= target) {
                return;
            }
            Long w = weights.remove(k);
            if (w != null) {
                values.remove(k);
                weight.addAndGet(-w);
            }
        }
    }
}
