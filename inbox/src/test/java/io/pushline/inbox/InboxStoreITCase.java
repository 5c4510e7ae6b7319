package io.pushline.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Json;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.inbox.InboxRead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The inbox's HBase store on the embedded HBase: the contract's rules, broadcasts, concurrent
 * writers; and the dispatch job's inbox writer, whose adds wait for their batch and are in HBase
 * before the checkpoint barrier after them, before a later change of their uid, after the longest
 * wait and at the end of input.
 */
class InboxStoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = LocalStackExtension.hbaseOnly();
    static final String NS = "itinbox";
    static final long DAY = 86_400_000L;
    static final Duration RETENTION = Duration.ofDays(90);
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

    /**
     * A server answers a page on its network thread only when the whole inbox is in memory: the
     * cached row, the list of broadcasts (fresh), their audiences and the messages. Then the answer
     * is the store's; otherwise there is none, and the store is read.
     */
    @Test
    void anInboxAllInMemoryIsServedFromThereAsTheStoreServesIt() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        try (IdDictionary uids = new IdDictionary(hbase, NS, 100);
                InboxStore writer = store(clock);
                InboxStore served = store(clock)) {
            var ids = uids.assignAll(List.of("mem1", "mem2"));
            writer.add("mem1", "mem-own", "own", "", NOW - 5_000);
            writer.add("mem1", "mem-read", "read", "", NOW - 4_000);
            writer.broadcast(
                    "mem-all", "news", "", NOW - 1_000, IdSet.of(ids.get("mem1"), ids.get("mem2")));
            writer.read("mem1", List.of("mem-read"));
            InboxCache cache = new InboxCache(1 << 20);
            served.cacheIn(cache);
            assertThat(served.viewInMemory("mem1")).as("the cache is off").isNull();
            served.scanRows(cache::offer);
            cache.turnOn();
            assertThat(served.viewInMemory("mem1")).as("nothing else loaded yet").isNull();

            InboxView fromStore = served.view("mem1"); // loads broadcasts, audiences, messages
            InboxView inMemory = served.viewInMemory("mem1");
            assertThat(inMemory).isNotNull();
            InboxView.Page a = fromStore.page(2, null);
            InboxView.Page b = inMemory.page(2, null);
            assertThat(b.messages())
                    .extracting(Message::msgId)
                    .containsExactly("mem-all", "mem-read");
            assertThat(b.messages()).isEqualTo(a.messages());
            assertThat(b.read()).containsExactly(false, true).isEqualTo(a.read());
            assertThat(b.next()).isEqualTo(a.next());
            assertThat(inMemory.unread()).isEqualTo(fromStore.unread()).isEqualTo(2);

            clock.addAndGet(1_000); // the list of broadcasts is due to be scanned again
            assertThat(served.viewInMemory("mem1")).isNull();
            served.view("mem1");
            assertThat(served.viewInMemory("mem1")).isNotNull();
            assertThat(served.viewInMemory("mem2")).as("mem2 has no row").isNull();
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

    /**
     * The dispatch job's writers may see a msgId's two requests in either order (read from two
     * partitions): the entry is the earliest request's, whichever came first, in one batch or two.
     */
    @Test
    void theEarliestRequestOfAMsgIdWinsWhicheverReachesTheStoreFirst() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        long first = NOW - 1_000;
        try (InboxStore later = store(clock);
                InboxStore earlier = store(clock);
                InboxStore server = store(clock)) {
            // one batch holding both, the later request first
            later.addAll(
                    List.of(
                            new InboxStore.Add("e1", "dup1", "second", "b2", first + 1),
                            new InboxStore.Add("e2", "dup1", "first", "b1", first)));
            assertThat(titleAndTs(server, "e1", "dup1")).isEqualTo("first@" + first);
            assertThat(titleAndTs(server, "e2", "dup1")).isEqualTo("first@" + first);
            assertThat(later.takeReplaced()).isEmpty();

            // two writers, the later request's first
            later.addAll(List.of(new InboxStore.Add("e3", "dup2", "second", "b2", first + 1)));
            assertThat(titleAndTs(server, "e3", "dup2")).isEqualTo("second@" + (first + 1));
            earlier.addAll(List.of(new InboxStore.Add("e4", "dup2", "first", "b1", first)));
            List<Integer> replaced = earlier.takeReplaced();
            assertThat(replaced).hasSize(1);
            assertThat(earlier.takeReplaced()).isEmpty();
            try (InboxStore fresh = store(clock)) {
                assertThat(titleAndTs(fresh, "e3", "dup2")).isEqualTo("first@" + first);
                assertThat(titleAndTs(fresh, "e4", "dup2")).isEqualTo("first@" + first);
            }
            // the server read it before the change: it keeps its copy until told
            assertThat(titleAndTs(server, "e3", "dup2")).isEqualTo("second@" + (first + 1));
            server.forgetMessage(replaced.get(0));
            assertThat(titleAndTs(server, "e3", "dup2")).isEqualTo("first@" + first);

            // a request at the same time or later changes nothing
            later.addAll(List.of(new InboxStore.Add("e5", "dup2", "third", "b3", first)));
            later.addAll(List.of(new InboxStore.Add("e5", "dup2", "fourth", "b4", NOW)));
            assertThat(later.takeReplaced()).isEmpty();
            try (InboxStore fresh = store(clock)) {
                assertThat(titleAndTs(fresh, "e5", "dup2")).isEqualTo("first@" + first);
            }
        }
    }

    private static String titleAndTs(InboxStore s, String uid, String msgId) throws Exception {
        return s.view(uid).messages().stream()
                .filter(m -> m.msgId().equals(msgId))
                .map(m -> m.title() + "@" + m.ts())
                .findFirst()
                .orElse("none");
    }

    @Test
    void batchesOfAddsFromConcurrentWritersLoseNoneAndAddEachOnce() throws Exception {
        AtomicLong clock = new AtomicLong(NOW);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (InboxStore a = store(clock);
                InboxStore b = store(clock);
                InboxStore c = store(clock)) {
            InboxStore[] writers = {a, b, c};
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                InboxStore s = writers[w];
                int writer = w;
                done.add(
                        pool.submit(
                                () -> {
                                    for (int round = 0; round < 5; round++) {
                                        String msg = "w" + writer + "-r" + round;
                                        List<InboxStore.Add> adds = new ArrayList<>();
                                        for (int u = 0; u < 20; u++) {
                                            adds.add(add("y" + u, msg, "first", NOW - round));
                                            // twice in one batch: one message, the first's
                                            adds.add(add("y" + u, msg, "again", NOW));
                                        }
                                        // left every inbox already: nothing
                                        adds.add(add("y0", "gone" + msg, "", NOW - 91 * DAY));
                                        s.addAll(adds);
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            for (int u = 0; u < 20; u++) {
                assertThat(a.view("y" + u).unread()).as("inbox y" + u).isEqualTo(15);
            }
            assertThat(a.view("y0").page(20, null).messages())
                    .hasSize(15)
                    .extracting(Message::title)
                    .containsOnly("first");
            a.addAll(List.of()); // nothing to do
            assertThat(a.view("y1").unread()).isEqualTo(15);
        } finally {
            pool.shutdownNow();
        }
    }

    private static InboxStore.Add add(String uid, String msgId, String title, long ts) {
        return new InboxStore.Add(uid, msgId, title, "", ts);
    }

    @Test
    void addsWaitForTheirBatchAndAreWrittenBeforeTheBarrier() throws Exception {
        String quorum = STACK.get().hbaseZkQuorum();
        long now = System.currentTimeMillis();
        InboxWriter writer = new InboxWriter(quorum, NS, RETENTION, null);
        try (InboxStore store = new InboxStore(hbase, NS, RETENTION, System::currentTimeMillis);
                KeyedOneInputStreamOperatorTestHarness<String, InboxOp, InboxRead> h =
                        new KeyedOneInputStreamOperatorTestHarness<>(
                                new InboxWriterOperator(writer), InboxOp::key, Types.STRING)) {
            h.open();
            for (int u = 0; u < 5; u++) {
                h.processElement(InboxOp.add("z" + u, "w1", "one", "", now), now);
            }
            assertThat(store.view("z0").unread()).as("waiting for its batch").isZero();
            assertThat(changes(h)).isEmpty();

            h.prepareSnapshotPreBarrier(1);
            for (int u = 0; u < 5; u++) {
                assertThat(store.view("z" + u).unread()).as("z" + u).isEqualTo(1);
            }
            assertThat(changes(h)).containsExactlyInAnyOrder("z0", "z1", "z2", "z3", "z4");

            // a read of a message added just before: the add is written first
            h.processElement(InboxOp.add("z0", "w2", "two", "", now), now);
            h.processElement(InboxOp.read(now, "z0", List.of("w2")), now);
            assertThat(h.extractOutputValues()).extracting(r -> r.msgId).containsExactly("w2");
            assertThat(store.view("z0").unread()).as("w1 unread, w2 read").isEqualTo(1);

            h.processElement(InboxOp.add("z8", "w1", "one", "", now), now);
            h.setProcessingTime(h.getProcessingTime() + InboxWriterOperator.MAX_WAIT_MS);
            assertThat(store.view("z8").unread()).as("written after the longest wait").isOne();

            h.processElement(InboxOp.add("z9", "w1", "one", "", now), now);
            h.endInput();
            assertThat(store.view("z9").unread()).as("written at the end of input").isOne();
        }
    }

    @Test
    void aWriterThatReplacesAMessagesEntryTellsTheServers() throws Exception {
        String quorum = STACK.get().hbaseZkQuorum();
        long now = System.currentTimeMillis();
        try (KeyedOneInputStreamOperatorTestHarness<String, InboxOp, InboxRead> a = writer(quorum);
                KeyedOneInputStreamOperatorTestHarness<String, InboxOp, InboxRead> b =
                        writer(quorum)) {
            a.open();
            b.open();
            a.processElement(InboxOp.add("n1", "w9", "later", "", now + 1), now);
            a.endInput();
            assertThat(changes(a)).containsExactly("n1");
            b.processElement(InboxOp.add("n2", "w9", "earlier", "", now), now);
            b.endInput();
            List<InboxChange> told = new ArrayList<>();
            b.getSideOutput(DispatchTags.INBOX_CHANGES).forEach(r -> told.add(r.getValue()));
            assertThat(told).extracting(c -> c.uid).containsExactly("n2", null);
            InboxChange notice = told.get(1);
            assertThat(notice.key()).isEmpty();
            assertThat(Json.write(notice))
                    .isEqualTo("{\"ts\":" + notice.ts + ",\"msg\":" + notice.msg + "}");
            try (InboxStore store =
                    new InboxStore(hbase, NS, RETENTION, System::currentTimeMillis)) {
                assertThat(titleAndTs(store, "n1", "w9")).isEqualTo("earlier@" + now);
            }
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, InboxOp, InboxRead> writer(
            String quorum) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new InboxWriterOperator(new InboxWriter(quorum, NS, RETENTION, null)),
                InboxOp::key,
                Types.STRING);
    }

    private static List<String> changes(
            KeyedOneInputStreamOperatorTestHarness<String, InboxOp, InboxRead> h) {
        List<String> out = new ArrayList<>();
        Queue<StreamRecord<InboxChange>> q = h.getSideOutput(DispatchTags.INBOX_CHANGES);
        if (q != null) {
            q.forEach(r -> out.add(r.getValue().uid));
        }
        return out;
    }
}
