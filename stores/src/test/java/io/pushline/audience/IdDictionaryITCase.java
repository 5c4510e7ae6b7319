package io.pushline.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStackExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The uid dictionary on the real embedded HBase, with concurrent writers. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class IdDictionaryITCase {
    @RegisterExtension static final LocalStackExtension STACK = LocalStackExtension.hbaseOnly();

    @Test
    void concurrentWritersNeverShareOrChangeAnId() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "dicttest");
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            pool.add("user-" + i);
        }
        int writers = 4;
        ExecutorService threads = Executors.newFixedThreadPool(writers);
        Map<String, Integer> seen = new ConcurrentHashMap<>();
        List<String> conflicts = Collections.synchronizedList(new ArrayList<>());
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            final long seed = w;
            done.add(
                    threads.submit(
                            () -> {
                                List<String> mine = new ArrayList<>(pool);
                                Collections.shuffle(mine, new Random(seed));
                                mine =
                                        mine.subList(
                                                0,
                                                800); // two thirds of the pool: most uids are raced
                                // for
                                try (IdDictionary dict = new IdDictionary(hbase, "dicttest", 500)) {
                                    for (int from = 0; from < mine.size(); from += 100) {
                                        List<String> batch = mine.subList(from, from + 100);
                                        Map<String, Integer> ids =
                                                seed % 2 == 0
                                                        ? dict.assignAll(batch)
                                                        : one(dict, batch);
                                        for (Map.Entry<String, Integer> e : ids.entrySet()) {
                                            Integer before =
                                                    seen.putIfAbsent(e.getKey(), e.getValue());
                                            if (before != null && !before.equals(e.getValue())) {
                                                conflicts.add(e.getKey());
                                            }
                                        }
                                    }
                                }
                                return null;
                            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        threads.shutdown();

        assertThat(conflicts).as("uids that got two ids").isEmpty();
        assertThat(new HashSet<>(seen.values())).as("ids are never shared").hasSize(seen.size());
        try (IdDictionary fresh = new IdDictionary(hbase, "dicttest", 10)) {
            Map<String, Integer> again = fresh.assignAll(new ArrayList<>(seen.keySet()));
            assertThat(again).as("ids never change").isEqualTo(new HashMap<>(seen));
            for (Map.Entry<String, Integer> e : seen.entrySet()) {
                assertThat(fresh.uidOf(e.getValue())).isEqualTo(e.getKey());
            }
            // an id a writer lost in a race leads nowhere (its reverse row is gone), and every
            // id that leads somewhere leads to the uid that holds it
            int unused = 0;
            for (int id = 0; id < fresh.size(); id++) {
                String uid = fresh.uidOf(id);
                if (uid == null) {
                    unused++;
                } else {
                    assertThat(fresh.idOf(uid)).as("id " + id).isEqualTo(id);
                }
            }
            assertThat(unused).isEqualTo(fresh.size() - seen.size());
            // NOT is taken against the universe: exactly the ids that lead to a uid
            IdSet universe = fresh.universe();
            assertThat(universe.cardinality()).isEqualTo(seen.size());
            assertThat(universe)
                    .isEqualTo(IdSet.of(seen.values().stream().mapToInt(i -> i).toArray()));
            // many at once: the same answers whether read by range (a dense ascending run, with
            // the unused ids and ids past the end in it) or row by row (sparse, or unordered)
            int[] run = IntStream.range(0, fresh.size() + 5).toArray();
            int[] sparse = IntStream.range(0, fresh.size()).filter(i -> i % 3 == 0).toArray();
            int[] unordered =
                    IntStream.range(0, run.length).map(i -> run[run.length - 1 - i]).toArray();
            for (int[] ids : List.of(run, sparse, unordered)) {
                try (IdDictionary uncached = new IdDictionary(hbase, "dicttest", 0)) {
                    String[] uids = uncached.uidsOf(ids);
                    for (int i = 0; i < ids.length; i++) {
                        assertThat(uids[i]).as("id " + ids[i]).isEqualTo(fresh.uidOf(ids[i]));
                    }
                    if (ids != sparse) {
                        assertThat(Arrays.stream(uids).filter(u -> u != null).count())
                                .isEqualTo(seen.size());
                    }
                }
            }
            assertThat(fresh.idOf("never-seen")).isNull();
            int next = fresh.assign("new-user");
            assertThat(seen.values()).doesNotContain(next);
            assertThat(fresh.assign("new-user")).isEqualTo(next);
        }
    }

    /**
     * The tables keep a row index in each block ({@code ROW_INDEX_V1}, for gets that do not walk
     * the block); ids written, flushed to files and read back by a fresh reader (nothing cached),
     * row by row and by the range scan a campaign uses, are the ids assigned.
     */
    @Test
    void idsReadBackFromFlushedFilesWithTheRowIndex() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "dictfiles");
        try (Admin admin = hbase.getAdmin()) {
            assertThat(
                            admin.getDescriptor(IdDictionary.table("dictfiles"))
                                    .getColumnFamily(HBaseTables.FAMILY)
                                    .getDataBlockEncoding())
                    .isEqualTo(DataBlockEncoding.ROW_INDEX_V1);
        }
        // enough small rows for many blocks, so that gets land inside blocks, not at their start
        List<String> uids = IntStream.range(0, 20_000).mapToObj(i -> "file-uid-" + i).toList();
        Map<String, Integer> ids;
        try (IdDictionary dict = new IdDictionary(hbase, "dictfiles", 10)) {
            ids = dict.assignAll(uids);
        }
        try (Admin admin = hbase.getAdmin()) {
            admin.flush(IdDictionary.table("dictfiles"));
        }
        try (IdDictionary reader = new IdDictionary(hbase, "dictfiles", 10)) {
            List<String> some = new ArrayList<>();
            for (int i = 0; i < uids.size(); i += 7) {
                some.add(uids.get(i));
            }
            Map<String, Integer> read = reader.idsOf(some);
            for (String uid : some) {
                assertThat(read.get(uid)).as(uid).isEqualTo(ids.get(uid));
            }
            assertThat(reader.idOf("file-uid-absent")).isNull();
            int[] all = ids.values().stream().mapToInt(Integer::intValue).sorted().toArray();
            String[] back = reader.uidsOf(all);
            for (int i = 0; i < all.length; i++) {
                assertThat(ids.get(back[i])).as("id %d", all[i]).isEqualTo(all[i]);
            }
        }
    }

    /**
     * A writer that dies between its writes (here: the write fails) leaves no uid whose id leads
     * nowhere: the uid, seen again, gets an id that maps back to it.
     */
    @Test
    void aWriterDyingBetweenItsWritesLeavesEveryUidReachable() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "dictcrash");
        for (String dies : List.of("put", "checkAndMutate")) {
            String uid = "crash-at-" + dies + "-" + System.nanoTime();
            try (IdDictionary dying = new IdDictionary(failing(hbase, dies), "dictcrash", 10)) {
                assertThatThrownBy(() -> dying.assign(uid)).isInstanceOf(java.io.IOException.class);
            }
            int id;
            try (IdDictionary dict = new IdDictionary(hbase, "dictcrash", 10)) {
                id = dict.assign(uid);
            }
            // a fresh reader (nothing cached) follows the id back to the uid
            try (IdDictionary reader = new IdDictionary(hbase, "dictcrash", 10)) {
                assertThat(reader.uidOf(id)).as(dies).isEqualTo(uid);
            }
        }
    }

    /**
     * The client sends a batch again when its answer was lost (a timeout) after the server applied
     * it: the claims of the first attempt come back refused. They are still the writer's own, and
     * each uid must keep an id that leads back to it.
     */
    @Test
    void claimsSentTwiceBecauseAnAnswerWasLostKeepEveryUidReachable() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "dictretry");
        List<String> uids = IntStream.range(0, 50).mapToObj(i -> "retried-" + i).toList();
        Map<String, Integer> ids;
        try (IdDictionary dict = new IdDictionary(answeredTwice(hbase), "dictretry", 10)) {
            ids = dict.assignAll(uids);
        }
        assertThat(new HashSet<>(ids.values())).hasSize(50);
        try (IdDictionary reader = new IdDictionary(hbase, "dictretry", 10)) {
            for (String uid : uids) {
                assertThat(reader.idOf(uid)).isEqualTo(ids.get(uid));
                assertThat(reader.uidOf(ids.get(uid))).as(uid).isEqualTo(uid);
            }
            assertThat(reader.universe().cardinality()).isEqualTo(50);
        }
    }

    /** {@code hbase}, except that the tables send every batch of claims twice. */
    private static Connection answeredTwice(Connection hbase) {
        return withTables(
                hbase,
                (m, args, real) -> {
                    if (m.getName().equals("checkAndMutate") && args[0] instanceof List) {
                        m.invoke(real, args); // its answer is lost
                    }
                    return m.invoke(real, args);
                });
    }

    /** {@code hbase}, except that the tables' {@code method} fails as a dying writer would. */
    private static Connection failing(Connection hbase, String method) {
        return withTables(
                hbase,
                (m, args, real) -> {
                    if (m.getName().equals(method)) {
                        throw new java.io.IOException("writer died (test)");
                    }
                    return m.invoke(real, args);
                });
    }

    /** A call to a table of a wrapped connection. */
    private interface TableCall {
        Object call(java.lang.reflect.Method m, Object[] args, Table real) throws Exception;
    }

    /** {@code hbase}, with every call to its tables made through {@code call}. */
    private static Connection withTables(Connection hbase, TableCall call) {
        return (Connection)
                java.lang.reflect.Proxy.newProxyInstance(
                        Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (proxy, m, args) -> {
                            Object real = m.invoke(hbase, args);
                            if (!(real instanceof Table)) {
                                return real;
                            }
                            return java.lang.reflect.Proxy.newProxyInstance(
                                    Table.class.getClassLoader(),
                                    new Class<?>[] {Table.class},
                                    (p2, tm, targs) -> {
                                        if (tm.getName().equals("close")) {
                                            return null; // the real connection stays open
                                        }
                                        try {
                                            return call.call(tm, targs, (Table) real);
                                        } catch (java.lang.reflect.InvocationTargetException e) {
                                            throw e.getCause();
                                        }
                                    });
                        });
    }

    private static Map<String, Integer> one(IdDictionary dict, List<String> uids) {
        Map<String, Integer> out = new HashMap<>();
        try {
            for (String uid : uids) {
                out.put(uid, dict.assign(uid));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }
}
