package io.pushline.recall.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecalledItem;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RecallScorerTest {
    static final LocalDate D = LocalDate.of(2026, 11, 22);
    static final long DAY = 86_400_000L;
    static final long MIDNIGHT = D.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();

    final RecallScorer scorer = new RecallScorer(D, 3);

    @Test
    void scoreIsInterestMatchTimesQualityTimesFreshness() {
        Material m = material("i1", "cat", 0.5, MIDNIGHT - 3 * DAY, "sports", "music");
        List<RecalledItem> r =
                scorer.recall(
                        Map.of("sports", 0.8, "music", 0.2),
                        Set.of(),
                        scorer.candidates(List.of(m), 10),
                        5);
        assertThat(r).hasSize(1);
        assertThat(r.get(0).score).isCloseTo((0.8 + 0.2) * 0.5 * 0.5, within());
    }

    @Test
    void consumedAndRecentlyPushedItemsAndFutureOnesAreNeverRecalled() {
        List<Material> all =
                List.of(
                        material("seen", "a", 1, MIDNIGHT - DAY, "news"),
                        material("pushed", "b", 1, MIDNIGHT - DAY, "news"),
                        material("tomorrow", "c", 1, MIDNIGHT + DAY, "news"),
                        material("ok", "d", 0.1, MIDNIGHT - DAY, "news"));
        List<RecalledItem> r =
                scorer.recall(
                        Map.of("news", 1.0),
                        Set.of("seen", "pushed"),
                        scorer.candidates(all, 10),
                        5);
        assertThat(r).extracting(x -> x.itemId).containsExactly("ok");
    }

    @Test
    void neverTwoOfOneCategoryInARowAndShorterWhenOnlyOneCategoryIsLeft() {
        List<Material> all =
                List.of(
                        material("a1", "A", 0.9, MIDNIGHT - DAY, "t"),
                        material("a2", "A", 0.8, MIDNIGHT - DAY, "t"),
                        material("a3", "A", 0.7, MIDNIGHT - DAY, "t"),
                        material("b1", "B", 0.3, MIDNIGHT - DAY, "t"));
        List<RecalledItem> r =
                scorer.recall(Map.of("t", 1.0), Set.of(), scorer.candidates(all, 10), 5);
        assertThat(r).extracting(x -> x.itemId).containsExactly("a1", "b1", "a2");
    }

    /** Against a brute-force scoring of the whole catalogue, on random users and items. */
    @Test
    void perTagCandidatesGiveTheSameTopItemsAsScoringTheWholeCatalogue() {
        Random rnd = new Random(3);
        String[] tags = {"t0", "t1", "t2", "t3", "t4", "t5"};
        String[] cats = {"c0", "c1", "c2"};
        List<Material> all = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            all.add(
                    material(
                            "i" + i,
                            cats[rnd.nextInt(cats.length)],
                            rnd.nextDouble(),
                            MIDNIGHT - (1 + rnd.nextInt(20 * 24)) * 3_600_000L,
                            tags[rnd.nextInt(tags.length)]));
        }
        // each item has one tag: the best 400 per tag are all of them, so this is exact
        Map<String, List<Material>> candidates = scorer.candidates(all, 400);
        for (int u = 0; u < 200; u++) {
            Map<String, Double> interests = new HashMap<>();
            for (int k = 0; k < 1 + rnd.nextInt(3); k++) {
                interests.put(tags[rnd.nextInt(tags.length)], rnd.nextDouble());
            }
            Set<String> excluded = new HashSet<>();
            for (int k = 0; k < 30; k++) {
                excluded.add("i" + rnd.nextInt(400));
            }
            List<RecalledItem> r = scorer.recall(interests, excluded, candidates, 5);
            double best =
                    all.stream()
                            .filter(m -> !excluded.contains(m.itemId))
                            .mapToDouble(
                                    m ->
                                            interests.getOrDefault(m.tags[0], 0.0)
                                                    * m.quality
                                                    * scorer.freshness(m))
                            .max()
                            .orElse(0);
            assertThat(r).isNotEmpty();
            assertThat(r.get(0).score).isCloseTo(best, within());
            assertThat(r).noneMatch(x -> excluded.contains(x.itemId));
            for (int i = 1; i < r.size(); i++) {
                assertThat(r.get(i).category).isNotEqualTo(r.get(i - 1).category);
            }
            assertThat(r.stream().map(x -> x.itemId).collect(Collectors.toSet())).hasSize(r.size());
        }
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(1e-9);
    }

    private static Material material(
            String id, String category, double quality, long publishTs, String... tags) {
        Material m = new Material();
        m.itemId = id;
        m.category = category;
        m.quality = quality;
        m.publishTs = publishTs;
        m.tags = tags;
        m.title = "T " + id;
        m.body = "B";
        return m;
    }
}
