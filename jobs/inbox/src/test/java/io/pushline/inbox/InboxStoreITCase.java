package io.pushline.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStackExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The inbox's HBase store on the embedded HBase: the contract's rules, broadcasts, concurrent
 * writers.
 */
class InboxStoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();
    static final String NS = "itinbox";
    static final long DAY = 86_400_000L;
    static final long NOW = System.currentTimeMillis();
    static Connection hbase;

    @BeforeAll
    static void tables() throws Exception {
        hbase =
                ConnectionFactory.createConnection(
                        HBaseTables.clientConf(STACK.get().hbaseZkQuorum()));
        HBaseTables.ensure(hbase, NS);
    }

    static InboxStore store(AtomicLong clock) throws Exception {
        return new InboxStore(hbase, NS, Duration.ofDays(90), clock::get);
    }

    @Test
    void messagesNewestFirstReadsCountedOnlyWhatWasSentCanBeRead() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        try (InboxStore s = store(clock)) {
            s.add("a1", "m1", "one", "b1", NOW - 3_000);
            s.add("a1", "m2", "two", "b2", NOW - 1_000);
            s.add("a1", "m3", "three", "b3", NOW - 2_000);
            s.add("a1", "m2", "changed", "changed", NOW); // the same msgId again: nothing changes
            InboxView v = s.view("a1");
            assertThat(v.page(20, null).messages())
                    .extracting(Message::msgId)
                    .containsExactly("m2", "m3", "m1");
            assertThat(v.page(20, null).messages().get(0).title()).isEqualTo("two");
            assertThat(v.unread()).isEqualTo(3);

            InboxStore.ReadResult r = s.read("a1", List.of("m1", "nope", "m4"));
            assertThat(r.ignored()).containsExactly("nope", "m4");
            assertThat(r.unread()).isEqualTo(2);
            s.add("a2", "m4", "four", "b4", NOW); // another uid's message stays unreadable for a1
            assertThat(s.read("a1", List.of("m4")).ignored()).containsExactly("m4");
            assertThat(s.status("a1", "m1")).isEqualTo(new InboxStore.Status(true, true));
            assertThat(s.status("a1", "m2")).isEqualTo(new InboxStore.Status(true, false));
            assertThat(s.status("a1", "m4")).isEqualTo(new InboxStore.Status(false, false));
            assertThat(s.view("nobody").unread()).isZero();

            assertThat(s.readAll("a1").unread()).isZero();
            s.add("a1", "m5", "five", "b5", NOW);
            assertThat(s.view("a1").unread()).isEqualTo(1);
        }
    }

    @Test
    void aBroadcastIsStoredOnceAndMergedIntoItsMembersInboxes() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        try (IdDictionary uids = new IdDictionary(hbase, NS, 100);
                InboxStore s = store(clock)) {
            var ids = uids.assignAll(List.of("c1", "c2", "c3"));
            s.add("c1", "own", "own", "", NOW - 5_000);
            s.broadcast(
                    "all-but-c2",
                    "news",
                    "hello",
                    NOW - 1_000,
                    IdSet.of(ids.get("c1"), ids.get("c3")));
            clock.addAndGet(1_001); // the list of broadcasts is reused for a second
            assertThat(s.view("c1").page(10, null).messages())
                    .extracting(Message::msgId)
                    .containsExactly("all-but-c2", "own");
            assertThat(s.view("c3").unread()).isEqualTo(1);
            assertThat(s.view("c2").unread()).isZero();
            assertThat(s.read("c2", List.of("all-but-c2")).ignored()).containsExactly("all-but-c2");
            assertThat(s.read("c3", List.of("all-but-c2")).unread()).isZero();
            assertThat(s.status("c3", "all-but-c2").read()).isTrue();
            assertThat(s.status("c1", "all-but-c2").read()).isFalse();
            assertThat(s.readAll("c1").unread()).isZero();
            assertThat(s.view("c1").unread()).isZero();
        }
    }

    @Test
    void messagesLeaveAfterTheRetention() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        try (InboxStore s = store(clock)) {
            s.add("r1", "too-old", "", "", NOW - 91 * DAY); // never enters
            s.add("r1", "old", "", "", NOW - 80 * DAY);
            s.add("r1", "new", "", "", NOW);
            assertThat(s.view("r1").page(10, null).messages())
                    .extracting(Message::msgId)
                    .containsExactly("new", "old");
            clock.addAndGet(11 * DAY);
            assertThat(s.view("r1").page(10, null).messages())
                    .extracting(Message::msgId)
                    .containsExactly("new");
            assertThat(s.status("r1", "old").readable()).isFalse();
        }
    }

    @Test
    void concurrentWritersLoseNoChange() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (InboxStore a = store(clock);
                InboxStore b = store(clock);
                InboxStore c = store(clock)) {
            List<Future<?>> done = new ArrayList<>();
            InboxStore[] writers = {a, b, c};
            for (int w = 0; w < 3; w++) {
                InboxStore s = writers[w];
                int from = w * 15;
                done.add(
                        pool.submit(
                                () -> {
                                    for (int i = from; i < from + 15; i++) {
                                        s.add("x1", "k" + i, "", "", NOW - i);
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            assertThat(a.view("x1").unread()).isEqualTo(45);
        } finally {
            pool.shutdownNow();
        }
    }
}
