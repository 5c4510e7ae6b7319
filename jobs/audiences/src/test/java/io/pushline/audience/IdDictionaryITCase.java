package io.pushline.audience;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStackExtension;
import java.util.ArrayList;
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
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The uid dictionary on the real embedded HBase, with concurrent writers. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class IdDictionaryITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @Test
    void concurrentWritersNeverShareOrChangeAnId() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "dicttest");
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
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
                                mine = mine.subList(0, 2000);
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
            assertThat(fresh.idOf("never-seen")).isNull();
            int next = fresh.assign("new-user");
            assertThat(seen.values()).doesNotContain(next);
            assertThat(fresh.assign("new-user")).isEqualTo(next);
        }
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
