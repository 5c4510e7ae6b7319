package io.pushline.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class InboxViewTest {
    @Test
    void newestFirstEqualTimesInOneOrderExpiredLeft() {
        Map<Integer, Message> stored = new HashMap<>();
        stored.put(1, msg(1, 100));
        stored.put(2, msg(2, 300));
        stored.put(3, msg(3, 300));
        stored.put(4, msg(4, 50)); // older than the retention
        InboxView v =
                new InboxView(
                        RoaringBitmap.bitmapOf(1, 2, 3, 4, 5),
                        RoaringBitmap.bitmapOf(1, 4),
                        stored,
                        60);
        assertThat(v.page(10, null).messages())
                .extracting(Message::msgId)
                .containsExactly("m3", "m2", "m1");
        assertThat(v.unread()).isEqualTo(2); // 5 has no message, 4 has left: neither counts
        assertThat(v.contains(4)).isFalse();
        assertThat(v.unreadAfter(RoaringBitmap.bitmapOf(2, 4, 9))).isEqualTo(1);
    }

    /** A page's read flags follow its messages, whose order is by time, not by id. */
    @Test
    void eachPagedMessageCarriesItsOwnReadFlag() {
        Map<Integer, Message> stored = new HashMap<>();
        RoaringBitmap sent = new RoaringBitmap();
        for (int id = 1; id <= 9; id++) {
            stored.put(id, msg(id, 1_000 - 10 * id)); // the lower the id, the newer
            sent.add(id);
        }
        InboxView v = new InboxView(sent, RoaringBitmap.bitmapOf(2, 3, 7), stored, 0);
        InboxView.Page first = v.page(4, null);
        assertThat(first.messages()).extracting(Message::id).containsExactly(1, 2, 3, 4);
        assertThat(first.read()).containsExactly(false, true, true, false);
        InboxView.Page second = v.page(4, first.next());
        assertThat(second.messages()).extracting(Message::id).containsExactly(5, 6, 7, 8);
        assertThat(second.read()).containsExactly(false, false, true, false);
        for (InboxView.Page p : List.of(first, second)) {
            for (int i = 0; i < p.messages().size(); i++) {
                assertThat(p.isRead(i)).isEqualTo(v.isRead(p.messages().get(i).id()));
            }
        }
        assertThat(v.unread()).isEqualTo(6);
    }

    /** The original system's example: pushed 2,3,4,6,8,10,11, pages of 3. */
    @Test
    void theOriginalSystemsPagingExample() {
        Map<Integer, Message> stored = new HashMap<>();
        RoaringBitmap sent = new RoaringBitmap();
        for (int id : new int[] {2, 3, 4, 6, 8, 10, 11}) {
            stored.put(id, msg(id, 1_000 + id));
            sent.add(id);
        }
        InboxView v = new InboxView(sent, new RoaringBitmap(), stored, 0);
        List<List<String>> pages = new ArrayList<>();
        InboxCursor cursor = null;
        do {
            InboxView.Page p = v.page(3, cursor);
            pages.add(p.messages().stream().map(Message::msgId).toList());
            cursor = p.next();
        } while (cursor != null);
        assertThat(pages)
                .containsExactly(
                        List.of("m11", "m10", "m8"), List.of("m6", "m4", "m3"), List.of("m2"));
    }

    @Test
    void pagingWithCursorsListsEveryMessageOnceEvenWhenNewOnesArrive() {
        Random r = new Random(7);
        for (int round = 0; round < 50; round++) {
            Map<Integer, Message> stored = new HashMap<>();
            RoaringBitmap sent = new RoaringBitmap();
            int n = r.nextInt(60);
            for (int id = 0; id < n; id++) {
                stored.put(id, msg(id, 1_000 + r.nextInt(10))); // many equal times
                sent.add(id);
            }
            int limit = 1 + r.nextInt(7);
            List<String> seen = new ArrayList<>();
            InboxCursor cursor = null;
            int pages = 0;
            do {
                // a newer message arrives before each page
                int fresh = n + pages;
                stored.put(fresh, msg(fresh, 5_000 + pages));
                sent.add(fresh);
                InboxView v = new InboxView(sent, new RoaringBitmap(), stored, 0);
                InboxView.Page p = v.page(limit, cursor);
                p.messages().forEach(m -> seen.add(m.msgId()));
                assertThat(p.messages().size()).isLessThanOrEqualTo(limit);
                cursor = p.next() == null ? null : InboxCursor.decode(p.next().encode());
                pages++;
            } while (cursor != null);
            // the first page holds the newest; later pages only what was there before
            assertThat(seen).doesNotHaveDuplicates();
            for (int id = 0; id < n; id++) {
                assertThat(seen).contains("m" + id);
            }
        }
    }

    /** A read id counts only while its message is in the inbox; reading more counts once. */
    @Test
    void readStateOnlyForMessagesInTheInbox() {
        Map<Integer, Message> stored = new HashMap<>();
        for (int id = 1; id <= 6; id++) {
            stored.put(id, msg(id, id <= 2 ? 10 : 100)); // 1 and 2 have left the inbox
        }
        RoaringBitmap read = RoaringBitmap.bitmapOf(2, 3, 4, 99);
        InboxView v = new InboxView(RoaringBitmap.bitmapOf(1, 2, 3, 4, 5, 6, 7), read, stored, 50);
        assertThat(v.ids().toArray()).containsExactly(3, 4, 5, 6);
        assertThat(v.unread()).isEqualTo(2);
        assertThat(v.isRead(3)).isTrue();
        assertThat(v.isRead(2)).as("read, but no longer in the inbox").isFalse();
        assertThat(v.isRead(99)).isFalse();
        assertThat(v.isRead(5)).isFalse();
        assertThat(v.contains(7)).as("no stored message").isFalse();
        assertThat(v.unreadAfter(RoaringBitmap.bitmapOf(3, 5, 1, 99))).isEqualTo(1);
        assertThat(v.unreadAfter(RoaringBitmap.bitmapOf(5, 6))).isZero();
    }

    @Test
    void badCursorsAreRefused() {
        for (String bad :
                new String[] {"", "x", "c1.", "c1.!!!", "c1." + "A".repeat(80), "c1.MTIz"}) {
            assertThatThrownBy(() -> InboxCursor.decode(bad))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        InboxCursor c = new InboxCursor(-5, 42);
        assertThat(InboxCursor.decode(c.encode())).isEqualTo(c);
    }

    private static Message msg(int id, long ts) {
        return new Message(id, "m" + id, "t" + id, "b" + id, ts);
    }
}
