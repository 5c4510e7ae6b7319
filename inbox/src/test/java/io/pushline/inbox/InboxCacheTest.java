package io.pushline.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.eval.IdSet;
import org.junit.jupiter.api.Test;

class InboxCacheTest {
    static InboxCache.Row row(long version, int... sent) {
        return new InboxCache.Row(IdSet.of(sent).toBytes(), IdSet.of().toBytes(), 7, version);
    }

    static int[] sent(InboxCache.Row r) {
        return IdSet.fromBytes(r.sent()).unwrap().toArray();
    }

    @Test
    void answersOnlyWhileOnAndCountsHitsAndMisses() {
        InboxCache c = new InboxCache(1 << 20);
        c.offer("u1", row(1, 3));
        assertThat(c.get("u1")).as("off until the feed has caught up").isNull();
        c.turnOn();
        assertThat(sent(c.get("u1"))).containsExactly(3);
        assertThat(c.get("u2")).isNull();
        assertThat(c.hits()).isEqualTo(1);
        assertThat(c.misses()).isEqualTo(1);
        c.turnOff();
        assertThat(c.get("u1")).isNull();
        assertThat(c.size()).isZero();
        assertThat(c.bytes()).isZero();
    }

    @Test
    void aScannedRowNeverReplacesOneFromTheFeed() {
        InboxCache c = new InboxCache(1 << 20);
        c.turnOn();
        c.refresh("u1", row(5, 1, 2));
        c.offer("u1", row(4, 1));
        assertThat(sent(c.get("u1"))).containsExactly(1, 2);
    }

    @Test
    void theFeedReplacesAndRemovesWhateverTheVersion() {
        InboxCache c = new InboxCache(1 << 20);
        c.turnOn();
        c.offer("u1", row(9, 1));
        // the row expired and started again at version 1: the feed read it after the change
        c.refresh("u1", row(1, 4));
        assertThat(sent(c.get("u1"))).containsExactly(4);
        c.refresh("u1", null);
        assertThat(c.get("u1")).isNull();
        assertThat(c.bytes()).isZero();
    }

    @Test
    void ownWritesReplaceOlderVersionsAndDropTheRowOtherwise() {
        InboxCache c = new InboxCache(1 << 20);
        c.turnOn();
        c.written("u0", row(1, 1));
        assertThat(c.get("u0")).as("not held: left to the feed").isNull();
        c.offer("u1", row(2, 1));
        c.written("u1", row(3, 1, 5));
        assertThat(sent(c.get("u1"))).containsExactly(1, 5);
        c.written("u1", row(3, 1, 6));
        assertThat(c.get("u1")).as("same version: unsure which is newer").isNull();
        assertThat(c.bytes()).isZero();
    }

    @Test
    void staysWithinItsBytes() {
        long one = row(1, 1).weight("u00");
        InboxCache c = new InboxCache(3 * one);
        c.turnOn();
        assertThat(c.offer("u00", row(1, 1))).isTrue();
        assertThat(c.offer("u01", row(1, 1))).isTrue();
        assertThat(c.offer("u02", row(1, 1))).isTrue();
        assertThat(c.offer("u03", row(1, 1))).isFalse();
        c.refresh("u04", row(1, 1));
        assertThat(c.get("u04")).as("a new uid beyond the bound").isNull();
        c.refresh("u00", row(2, 2));
        assertThat(sent(c.get("u00"))).as("a held uid is still refreshed").containsExactly(2);
        assertThat(c.size()).isEqualTo(3);
        assertThat(c.bytes()).isEqualTo(3 * one);
    }
}
