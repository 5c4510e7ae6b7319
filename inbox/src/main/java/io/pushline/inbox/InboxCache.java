package io.pushline.inbox;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Inbox rows held in a server's memory, so that reading an inbox costs no HBase round trip. Rows
 * come in from a scan of the table when the server starts ({@link #offer}) and from the change feed
 * ({@link #refresh}: the row read again after the dispatch job wrote it); the server's own writes
 * put what they wrote ({@link #written}). Nothing is put on a miss: a row read for a request could
 * be older than a change whose notice was just handled, and would then stay.
 *
 * <p>The cache answers only while it is {@link #on}: the server turns it off when the change feed
 * is lost, because a row nobody refreshes may go stale. Its size is bounded in bytes; when it is
 * full, rows not in it are read from HBase (a server holds the inboxes of its share of uids).
 */
public final class InboxCache {
    /** What one row costs besides its bytes: the map's entry, the uid and the row object. */
    static final int OVERHEAD = 120;

    /**
     * An inbox row as stored: sent and read (serialized Roaring bitmaps, validated when read from
     * HBase), the uid's dictionary id (-1: none) and the row's version.
     */
    public record Row(byte[] sent, byte[] read, int member, long version) {
        long weight(String uid) {
            return OVERHEAD + 2L * uid.length() + sent.length + read.length;
        }
    }

    private final long maxBytes;
    private final ConcurrentHashMap<String, Row> rows = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private volatile boolean on;

    public InboxCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The cached row of {@code uid}; null when the cache is off or does not hold it. */
    public Row get(String uid) {
        if (!on) {
            return null;
        }
        Row r = rows.get(uid);
        if (r == null) {
            misses.increment();
        } else {
            hits.increment();
        }
        return r;
    }

    /**
     * The cached row of {@code uid} for a read that needs everything in memory: a hit is counted
     * here, a miss by the {@link #get} the caller then makes.
     */
    Row getIfHit(String uid) {
        if (!on) {
            return null;
        }
        Row r = rows.get(uid);
        if (r != null) {
            hits.increment();
        }
        return r;
    }

    /** A row from the start-up scan: kept unless a fresher one is there or the cache is full. */
    public boolean offer(String uid, Row row) {
        long w = row.weight(uid);
        if (bytes.get() + w > maxBytes) {
            return false;
        }
        if (rows.putIfAbsent(uid, row) == null) {
            bytes.addAndGet(w);
        }
        return true;
    }

    /**
     * The row as read after a notice of a change: it replaces what the cache holds (null: the row
     * is gone). A uid not held is added while there is room.
     */
    public void refresh(String uid, Row row) {
        if (row == null) {
            Row old = rows.remove(uid);
            if (old != null) {
                bytes.addAndGet(-old.weight(uid));
            }
            return;
        }
        rows.compute(
                uid,
                (k, old) -> {
                    long w = row.weight(uid);
                    if (old == null && bytes.get() + w > maxBytes) {
                        return null;
                    }
                    bytes.addAndGet(w - (old == null ? 0 : old.weight(uid)));
                    return row;
                });
    }

    /**
     * A row this server just wrote: it replaces an older version; when the cache holds the same or
     * a newer one (the row expired and started again), the uid is dropped to be read from HBase
     * until its next notice.
     */
    public void written(String uid, Row row) {
        rows.computeIfPresent(
                uid,
                (k, old) -> {
                    if (old.version() < row.version()) {
                        bytes.addAndGet(row.weight(uid) - old.weight(uid));
                        return row;
                    }
                    bytes.addAndGet(-old.weight(uid));
                    return null;
                });
    }

    /** Starts answering (the change feed is read and the scan has begun). */
    public void turnOn() {
        on = true;
    }

    /** Stops answering and forgets every row (the change feed is lost). */
    public void turnOff() {
        on = false;
        rows.clear();
        bytes.set(0);
    }

    public boolean on() {
        return on;
    }

    public int size() {
        return rows.size();
    }

    public long bytes() {
        return bytes.get();
    }

    public long maxBytes() {
        return maxBytes;
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }
}
