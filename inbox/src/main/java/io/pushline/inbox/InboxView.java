package io.pushline.inbox;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.ImmutableBitmapDataProvider;
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

    /** Newest first. */
    private final Message[] messages;

    /** Whether {@code messages[i]} was read. */
    private final boolean[] readFlags;

    /** The ids in the inbox, ascending. */
    private final int[] ids;

    private final ImmutableBitmapDataProvider read;
    private final int unread;

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
     * @param read ids it read (kept, not copied: it must not change while the view is used)
     * @param oldest messages older than this (epoch ms) have left the inbox
     */
    public InboxView(List<Message> found, ImmutableBitmapDataProvider read, long oldest) {
        // The most frequent request of the API builds one of these: plain arrays and one pass,
        // no bitmap built per request (adding ids to a fresh bitmap was a tenth of a read's CPU).
        Message[] live = new Message[found.size()];
        int[] liveIds = new int[found.size()];
        int n = 0;
        for (Message m : found) {
            if (m.ts() >= oldest) {
                live[n] = m;
                liveIds[n++] = m.id(); // ascending, as found is
            }
        }
        Message[] sorted = n == live.length ? live : Arrays.copyOf(live, n);
        Arrays.sort(sorted, NEWEST_FIRST);
        // each message's read flag once, in page order: a page asks for them again
        boolean[] readFlags = new boolean[n];
        int unreadCount = 0;
        for (int i = 0; i < n; i++) {
            readFlags[i] = read.contains(sorted[i].id());
            if (!readFlags[i]) {
                unreadCount++;
            }
        }
        this.messages = sorted;
        this.readFlags = readFlags;
        this.ids = n == liveIds.length ? liveIds : Arrays.copyOf(liveIds, n);
        this.read = read;
        this.unread = unreadCount;
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
        return Collections.unmodifiableList(Arrays.asList(messages));
    }

    /** The ids in the inbox, as a new bitmap. */
    public RoaringBitmap ids() {
        return RoaringBitmap.bitmapOf(ids);
    }

    public boolean contains(int id) {
        return Arrays.binarySearch(ids, id) >= 0;
    }

    public boolean isRead(int id) {
        return contains(id) && read.contains(id);
    }

    public long unread() {
        return unread;
    }

    /** Unread after also reading {@code more}. */
    public long unreadAfter(RoaringBitmap more) {
        long left = 0;
        for (int id : ids) {
            if (!read.contains(id) && !more.contains(id)) {
                left++;
            }
        }
        return left;
    }

    /** A page of at most {@code limit} messages after {@code cursor} (null: from the newest). */
    public Page page(int limit, InboxCursor cursor) {
        int from = 0;
        if (cursor != null) {
            // the first message after the cursor: the array is sorted, so search for it
            int lo = 0;
            int hi = messages.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cursor.isBefore(messages[mid])) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            from = lo;
        }
        int to = Math.min(messages.length, from + limit);
        InboxCursor next = null;
        if (to < messages.length && to > from) {
            Message last = messages[to - 1];
            next = new InboxCursor(last.ts(), last.id());
        }
        return new Page(
                List.of(Arrays.copyOfRange(messages, from, to)),
                Arrays.copyOfRange(readFlags, from, to),
                next);
    }

    /**
     * Messages of a page, whether each was read (same order), and the cursor of the next page (null
     * on the last).
     */
    public record Page(List<Message> messages, boolean[] read, InboxCursor next) {
        /** Whether the page's {@code i}-th message was read. */
        public boolean isRead(int i) {
            return read[i];
        }
    }
}
