package io.pushline.recall;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.local.gen.NightlyData;
import io.pushline.recall.score.RecallScorer;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.RecalledItem;
import io.pushline.schema.recall.UserRecall;
import io.pushline.testkit.Clusters;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The recall job in BATCH mode on a MiniCluster (parallelism 2) over generated users, history and
 * materials: no consumed or recently pushed item, never one category twice in a row, at most k
 * items, and the same lists as scoring each user in memory against the per-tag candidates.
 */
class RecallJobITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final LocalDate D = LocalDate.of(2026, 11, 22);
    static final int USERS = 3_000;
    static final int K = 5;
    static final int PUSHED_DAYS = 7;

    @Test
    void recallLeavesOutWhatWasSeenAndNeverRepeatsACategoryInARow() throws Exception {
        NightlyData data = new NightlyData(4, D, 14);
        int catalogue = NightlyData.materialsFor(USERS);
        List<Material> materials = new ArrayList<>();
        for (int i = 0; i < catalogue; i++) {
            materials.add(data.material(i));
        }
        List<RecallInput> inputs = new ArrayList<>();
        Map<String, Map<String, Double>> interests = new HashMap<>();
        Map<String, Set<String>> consumed = new HashMap<>();
        Map<String, Set<String>> pushedRecently = new HashMap<>();
        long midnight = D.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        for (int i = 0; i < USERS; i++) {
            NightlyData.User u = data.user(i);
            RecallInput p = new RecallInput();
            p.uid = u.uid();
            p.kind = RecallInput.PROFILE;
            p.tags = u.interests().keySet().toArray(new String[0]);
            p.weights = u.interests().values().stream().mapToDouble(x -> x).toArray();
            inputs.add(p);
            interests.put(u.uid(), u.interests());
            data.history(
                    u,
                    catalogue,
                    h -> {
                        RecallInput r = new RecallInput();
                        r.uid = (String) h.get("uid");
                        r.itemId = (String) h.get("itemId");
                        r.kind = (String) h.get("kind");
                        r.ts = (Long) h.get("ts");
                        inputs.add(r);
                        if (r.kind.equals(RecallInput.CONSUMED)) {
                            consumed.computeIfAbsent(r.uid, x -> new HashSet<>()).add(r.itemId);
                        } else if (r.ts >= midnight - PUSHED_DAYS * 86_400_000L) {
                            pushedRecently
                                    .computeIfAbsent(r.uid, x -> new HashSet<>())
                                    .add(r.itemId);
                        }
                    });
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        Map<String, UserRecall> actual = new HashMap<>();
        try (CloseableIterator<UserRecall> it =
                RecallJob.build(
                                env.fromData(inputs, TypeInformation.of(RecallInput.class)),
                                env.fromData(materials, TypeInformation.of(Material.class)),
                                D,
                                K,
                                PUSHED_DAYS,
                                50)
                        .executeAndCollect()) {
            it.forEachRemaining(r -> actual.put(r.uid, r));
        }

        assertThat(actual).hasSize(USERS);
        RecallScorer scorer = new RecallScorer(D, RecallFunction.HALF_LIFE_DAYS);
        Map<String, List<Material>> candidates = scorer.candidates(materials, 50);
        int full = 0;
        for (UserRecall r : actual.values()) {
            Set<String> seen = new HashSet<>(consumed.getOrDefault(r.uid, Set.of()));
            seen.addAll(pushedRecently.getOrDefault(r.uid, Set.of()));
            assertThat(r.date).isEqualTo("2026-11-22");
            assertThat(r.items.length).isLessThanOrEqualTo(K);
            for (int i = 0; i < r.items.length; i++) {
                assertThat(seen).doesNotContain(r.items[i].itemId);
                if (i > 0) {
                    assertThat(r.items[i].category).isNotEqualTo(r.items[i - 1].category);
                }
            }
            List<RecalledItem> expected = scorer.recall(interests.get(r.uid), seen, candidates, K);
            assertThat(r.items)
                    .extracting(x -> x.itemId)
                    .containsExactlyElementsOf(expected.stream().map(x -> x.itemId).toList());
            full += r.items.length == K ? 1 : 0;
        }
        assertThat(full).isGreaterThan(USERS * 9 / 10);
        // some users really had items to leave out
        assertThat(consumed.size() + pushedRecently.size()).isGreaterThan(USERS / 2);
    }
}
