package io.pushline.recall.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecalledItem;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CandidateIndexTest {
    static final LocalDate D = LocalDate.of(2026, 11, 22);
    static final String[] TAGS = {"a", "b", "c", "d", "e", "f", "g"};
    static final String[] CATEGORIES = {"video", "live", "album"};

    @Test
    void givesExactlyTheScorersResultForRandomUsers() {
        Random r = new Random(5);
        long midnight = D.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        List<Material> catalogue = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            Material m = new Material();
            m.itemId = "item" + i;
            Set<String> tags = new LinkedHashSet<>();
            for (int t = 0, n = 1 + r.nextInt(3); t < n; t++) {
                tags.add(TAGS[r.nextInt(TAGS.length)]);
            }
            m.tags = tags.toArray(new String[0]);
            m.category = CATEGORIES[r.nextInt(CATEGORIES.length)];
            // a few equal qualities and times, so ties on score are decided by itemId
            m.quality = r.nextInt(10) / 10.0;
            m.publishTs = midnight - 1 - r.nextInt(5) * 86_400_000L;
            m.title = "T" + i;
            catalogue.add(m);
        }
        RecallScorer scorer = new RecallScorer(D, 3);
        Map<String, List<Material>> candidates = scorer.candidates(catalogue, 40);
        Map<String, Material[]> broadcast = new HashMap<>();
        candidates.forEach((t, l) -> broadcast.put(t, l.toArray(new Material[0])));
        CandidateIndex index = new CandidateIndex(broadcast, scorer);

        int compared = 0;
        for (int u = 0; u < 2_000; u++) {
            int n = 1 + r.nextInt(4);
            String[] tags = new String[n];
            double[] weights = new double[n];
            Map<String, Double> interests = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                // "z" has no candidates; repeats add up
                tags[i] = r.nextInt(10) == 0 ? "z" : TAGS[r.nextInt(TAGS.length)];
                weights[i] = r.nextInt(5) / 4.0;
                interests.merge(tags[i], weights[i], Double::sum);
            }
            Set<String> excluded = new HashSet<>();
            for (int i = 0, e = r.nextInt(30); i < e; i++) {
                excluded.add("item" + r.nextInt(700));
            }
            Map<String, List<Material>> mine = new HashMap<>();
            interests.keySet().forEach(t -> mine.put(t, candidates.getOrDefault(t, List.of())));
            List<RecalledItem> expected = scorer.recall(interests, excluded, mine, 5);
            List<RecalledItem> actual = index.recall(tags, weights, excluded, 5);
            assertThat(render(actual)).as("user %d", u).isEqualTo(render(expected));
            compared += expected.size();
        }
        assertThat(compared).isGreaterThan(5_000);
    }

    private static List<String> render(List<RecalledItem> items) {
        return items.stream()
                .map(i -> i.itemId + "/" + i.category + "/" + i.score)
                .collect(Collectors.toList());
    }
}
