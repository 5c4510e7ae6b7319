package io.pushline.recall.score;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecalledItem;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
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
    private static final int MEMO_LIMIT = 1_000_000;

    private final LocalDate date;
    private final long at;
    private final double halfLifeDays;

    // quality × freshness per item: the same few hundred candidates for every user of a run
    private final Map<String, Double> base = new HashMap<>();

    /** Not thread-safe (it remembers item scores): one per function instance. */
    public RecallScorer(LocalDate date, double halfLifeDays) {
        this.date = date;
        this.at = date.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        this.halfLifeDays = halfLifeDays;
    }

    public double freshness(Material m) {
        double ageDays = Math.max(0, (at - m.publishTs) / 86_400_000.0);
        return Math.pow(0.5, ageDays / halfLifeDays);
    }

    private double base(Material m) {
        Double b = base.get(m.itemId);
        if (b == null) {
            b = m.quality * freshness(m);
            if (base.size() < MEMO_LIMIT) {
                base.put(m.itemId, b);
            }
        }
        return b;
    }

    /**
     * Per tag, its best {@code perTag} items by quality × freshness (published before the date).
     */
    public Map<String, List<Material>> candidates(Iterable<Material> all, int perTag) {
        Map<String, List<Material>> byTag = new HashMap<>();
        for (Material m : all) {
            for (String tag : m.tags) {
                byTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(m);
            }
        }
        byTag.replaceAll((tag, items) -> best(items, perTag));
        return byTag;
    }

    /**
     * The best {@code perTag} of {@code items} by quality × freshness (then itemId), leaving out
     * items published on or after the date.
     */
    public List<Material> best(List<Material> items, int perTag) {
        List<Material> live = new ArrayList<>(items.size());
        for (Material m : items) {
            if (m.publishTs < at) {
                live.add(m);
            }
        }
        double[] score = new double[live.size()];
        Integer[] order = new Integer[live.size()];
        for (int i = 0; i < score.length; i++) {
            score[i] = live.get(i).quality * freshness(live.get(i));
            order[i] = i;
        }
        Arrays.sort(
                order,
                (a, b) -> {
                    int c = Double.compare(score[b], score[a]);
                    return c != 0 ? c : live.get(a).itemId.compareTo(live.get(b).itemId);
                });
        List<Material> out = new ArrayList<>(Math.min(perTag, order.length));
        for (int i = 0; i < order.length && i < perTag; i++) {
            out.add(live.get(order[i]));
        }
        return out;
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
        List<Material> items = new ArrayList<>();
        double[] scores = new double[16];
        Set<String> seen = new HashSet<>();
        for (String tag : interests.keySet()) {
            for (Material m : candidates.getOrDefault(tag, List.of())) {
                if (excluded.contains(m.itemId) || !seen.add(m.itemId)) {
                    continue;
                }
                double match = 0;
                for (String t : m.tags) {
                    match += interests.getOrDefault(t, 0.0);
                }
                double score = match * base(m);
                if (score > 0) {
                    if (items.size() == scores.length) {
                        scores = Arrays.copyOf(scores, scores.length * 2);
                    }
                    scores[items.size()] = score;
                    items.add(m);
                }
            }
        }
        // greedy: the best remaining item (score, then itemId) of another category than the last
        boolean[] used = new boolean[items.size()];
        List<RecalledItem> out = new ArrayList<>();
        String previous = null;
        while (out.size() < k) {
            int best = -1;
            for (int i = 0; i < items.size(); i++) {
                if (used[i] || items.get(i).category.equals(previous)) {
                    continue;
                }
                if (best < 0
                        || scores[i] > scores[best]
                        || (scores[i] == scores[best]
                                && items.get(i).itemId.compareTo(items.get(best).itemId) < 0)) {
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            used[best] = true;
            previous = items.get(best).category;
            out.add(RecalledItem.of(items.get(best), scores[best]));
        }
        return out;
    }
}
