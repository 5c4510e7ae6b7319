package io.pushline.recall;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecalledItem;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Personalized recall: score = Σ interest(tag) over the item's tags × quality × freshness, where
 * freshness halves every {@code halfLifeDays} since publication (as of the run's date). Candidates
 * are precomputed once per tag (the best {@code perTag} items by quality × freshness), so a user is
 * scored against the candidates of their own tags only, never the whole catalogue.
 */
public final class RecallScorer {
    private final LocalDate date;
    private final double halfLifeDays;

    public RecallScorer(LocalDate date, double halfLifeDays) {
        this.date = date;
        this.halfLifeDays = halfLifeDays;
    }

    public double freshness(Material m) {
        long at = date.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        double ageDays = Math.max(0, (at - m.publishTs) / 86_400_000.0);
        return Math.pow(0.5, ageDays / halfLifeDays);
    }

    /**
     * Per tag, its best {@code perTag} items by quality × freshness (published before the date).
     */
    public Map<String, List<Material>> candidates(Iterable<Material> all, int perTag) {
        long at = date.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        Map<String, List<Material>> byTag = new HashMap<>();
        for (Material m : all) {
            if (m.publishTs >= at) {
                continue;
            }
            for (String tag : m.tags) {
                byTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(m);
            }
        }
        Comparator<Material> best =
                Comparator.comparingDouble((Material m) -> m.quality * freshness(m))
                        .reversed()
                        .thenComparing(m -> m.itemId);
        for (Map.Entry<String, List<Material>> e : byTag.entrySet()) {
            List<Material> l = e.getValue();
            l.sort(best);
            e.setValue(new ArrayList<>(l.subList(0, Math.min(perTag, l.size()))));
        }
        return byTag;
    }

    /**
     * The user's top {@code k}: candidates of the user's tags, minus {@code excluded} (consumed,
     * recently pushed), by score; in the order they will be sent, never two of one category in a
     * row (the best item whose category differs from the previous one goes next; when none is left,
     * the list ends shorter).
     */
    public List<RecalledItem> recall(
            Map<String, Double> interests,
            Set<String> excluded,
            Map<String, List<Material>> candidates,
            int k) {
        Map<String, RecalledItem> scored = new LinkedHashMap<>();
        for (String tag : interests.keySet()) {
            for (Material m : candidates.getOrDefault(tag, List.of())) {
                if (excluded.contains(m.itemId) || scored.containsKey(m.itemId)) {
                    continue;
                }
                double match = 0;
                for (String t : m.tags) {
                    match += interests.getOrDefault(t, 0.0);
                }
                scored.put(m.itemId, RecalledItem.of(m, match * m.quality * freshness(m)));
            }
        }
        List<RecalledItem> ranked = new ArrayList<>(scored.values());
        ranked.sort(
                Comparator.comparingDouble((RecalledItem r) -> r.score)
                        .reversed()
                        .thenComparing(r -> r.itemId));
        List<RecalledItem> out = new ArrayList<>();
        while (out.size() < k) {
            String previous = out.isEmpty() ? null : out.get(out.size() - 1).category;
            RecalledItem next = null;
            for (RecalledItem r : ranked) {
                if (r.score > 0 && !r.category.equals(previous)) {
                    next = r;
                    break;
                }
            }
            if (next == null) {
                break;
            }
            ranked.remove(next);
            out.add(next);
        }
        return out;
    }
}
