package io.pushline.inbox;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.RoaringBitmap;

/**
 * One uid's inbox at one moment: the messages it was sent (its own and the broadcasts whose
 * audience holds it) that are within retention, newest first, and which of them it read. Pure
 * logic: the store gathers the bitmaps and messages, this class orders, counts and pages.
 */
public final class InboxView {
    /** Newest first; equal times by id, newest id first, so pages keep one order. */
    static final Comparator<Message> NEWEST_FIRST =
            (a, b) ->
                    a.ts() != b.ts()
                            ? Long.compare(b.ts(), a.ts())
                            : Integer.compare(b.id(), a.id());

    private final List<Message> messages;
    private final RoaringBitmap ids;
    private final RoaringBitmap read;

    /**
     * @param sent ids of the uid's own messages and of the broadcasts that reach it
     * @param read ids it read
     * @param stored the stored messages of those ids (an id without one has expired)
     * @param oldest messages older than this (epoch ms) have left the inbox
     */
    public InboxView(
            RoaringBitmap sent, RoaringBitmap read, Map<Integer, Message> stored, long oldest) {
        this(found(sent, stored), read, oldest);
    }

    /**
     * @param found the stored messages of the uid's ids, in ascending id order (an id without one
     *     has expired)
     * @param read ids it read
     * @param oldest messages older than this (epoch ms) have left the inbox
     */
    public InboxView(List<Message> found, RoaringBitmap read, long oldest) {
        List<Message> live = new ArrayList<>(found.size());
        RoaringBitmap liveIds = new RoaringBitmap();
        for (Message m : found) {
            if (m.ts() >= oldest) {
                live.add(m);
                liveIds.add(m.id()); // ascending: appended
            }
        }
        live.sort(NEWEST_FIRST);
        this.messages = live;
        this.ids = liveIds;
        this.read = RoaringBitmap.and(read, liveIds);
    }

    /** The stored messages of {@code sent}, in id order; an id without one has expired. */
    static List<Message> found(RoaringBitmap sent, Map<Integer, Message> stored) {
        List<Message> out = new ArrayList<>();
        for (int id : sent) {
            Message m = stored.get(id);
            if (m != null) {
                out.add(m);
            }
        }
        return out;
    }

    /** The messages in the inbox, newest first. */
    public List<Message> messages() {
        return messages;
    }

    /** The ids in the inbox. */
    public RoaringBitmap ids() {
        return ids;
    }

    public boolean contains(int id) {
        return ids.contains(id);
    }

    public boolean isRead(int id) {
        return read.contains(id);
    }

    public long unread() {
        return ids.getLongCardinality() - read.getLongCardinality();
    }

    /** Unread after also reading {@code more}. */
    public long unreadAfter(RoaringBitmap more) {
        return ids.getLongCardinality()
                - RoaringBitmap.or(read, RoaringBitmap.and(more, ids)).getLongCardinality();
    }

    /** A page of at most {@code limit} messages after {@code cursor} (null: from the newest). */
    public Page page(int limit, InboxCursor cursor) {
        int from = 0;
        if (cursor != null) {
            // the first message after the cursor: the list is sorted, so search for it
            int lo = 0;
            int hi = messages.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cursor.isBefore(messages.get(mid))) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            from = lo;
        }
        int to = Math.min(messages.size(), from + limit);
        List<Message> out = messages.subList(from, to);
        InboxCursor next = null;
        if (to < messages.size() && !out.isEmpty()) {
            Message last = out.get(out.size() - 1);
            next = new InboxCursor(last.ts(), last.id());
        }
        return new Page(List.copyOf(out), next);
    }

    /** Messages of a page, and the cursor of the next one (null on the last). */
    public record Page(List<Message> messages, InboxCursor next) {}
}
