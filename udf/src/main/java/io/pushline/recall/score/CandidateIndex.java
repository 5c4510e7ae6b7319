package io.pushline.recall.score;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecalledItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broadcast candidates laid out in arrays once per subtask, so scoring a user is array work:
 * tags and categories as small ints, each item's base score (quality × freshness) precomputed, a
 * stamp per item instead of a set for "already seen". Gives exactly {@link RecallScorer#recall}'s
 * result (same sums in the same order); built when the first user is scored, after BATCH has read
 * every candidate. Not thread-safe: one per function instance.
 */
public final class CandidateIndex {
    private final Map<String, Integer> tagIndex = new HashMap<>();
    private final Map<String, Integer> itemIndex = new HashMap<>();
    private final List<Material> items = new ArrayList<>();
    private final int[][] byTag;
    private final int[][] tagsOf;
    private final int[] category;
    private final double[] base;
    private final int[] stamp;
    private int epoch;

    /**
     * @param candidates tag to its candidates, as broadcast
     */
    public CandidateIndex(Map<String, Material[]> candidates, RecallScorer scorer) {
        Map<String, Integer> categories = new HashMap<>();
        List<int[]> lists = new ArrayList<>();
        for (Map.Entry<String, Material[]> e : candidates.entrySet()) {
            int t = tag(e.getKey());
            while (lists.size() <= t) {
                lists.add(new int[0]);
            }
            int[] list = new int[e.getValue().length];
            for (int i = 0; i < list.length; i++) {
                Material m = e.getValue()[i];
                Integer idx = itemIndex.get(m.itemId);
                if (idx == null) {
                    idx = items.size();
                    itemIndex.put(m.itemId, idx);
                    items.add(m);
                }
                list[i] = idx;
            }
            lists.set(t, list);
        }
        int n = items.size();
        tagsOf = new int[n][];
        category = new int[n];
        base = new double[n];
        stamp = new int[n];
        for (int i = 0; i < n; i++) {
            Material m = items.get(i);
            tagsOf[i] = new int[m.tags.length];
            for (int j = 0; j < m.tags.length; j++) {
                tagsOf[i][j] = tag(m.tags[j]);
            }
            category[i] = categories.computeIfAbsent(m.category, c -> categories.size());
            base[i] = m.quality * scorer.freshness(m);
        }
        while (lists.size() < tagIndex.size()) {
            lists.add(new int[0]);
        }
        byTag = lists.toArray(new int[0][]);
    }

    private int tag(String t) {
        return tagIndex.computeIfAbsent(t, x -> tagIndex.size());
    }

    /**
     * The user's top {@code k} in sending order; {@code tags} and {@code weights} as in the profile
     * (a tag listed twice adds up), {@code excluded} item ids never recalled.
     */
    public List<RecalledItem> recall(
            String[] tags, double[] weights, Iterable<String> excluded, int k) {
        double[] w = new double[tagIndex.size()];
        boolean[] mine = new boolean[w.length];
        for (int i = 0; i < tags.length; i++) {
            Integer t = tagIndex.get(tags[i]);
            if (t != null) { // a tag no candidate carries can add to no score
                w[t] += weights[i];
                mine[t] = true;
            }
        }
        if (++epoch == Integer.MAX_VALUE) {
            java.util.Arrays.fill(stamp, 0);
            epoch = 1;
        }
        for (String id : excluded) {
            Integer idx = itemIndex.get(id);
            if (idx != null) {
                stamp[idx] = epoch;
            }
        }
        int[] found = new int[16];
        double[] score = new double[16];
        int count = 0;
        for (int t = 0; t < mine.length; t++) {
            if (!mine[t]) {
                continue;
            }
            for (int i : byTag[t]) {
                if (stamp[i] == epoch) {
                    continue;
                }
                stamp[i] = epoch;
                double match = 0;
                for (int tt : tagsOf[i]) {
                    match += w[tt];
                }
                double s = match * base[i];
                if (s > 0) {
                    if (count == found.length) {
                        found = java.util.Arrays.copyOf(found, count * 2);
                        score = java.util.Arrays.copyOf(score, count * 2);
                    }
                    found[count] = i;
                    score[count++] = s;
                }
            }
        }
        List<RecalledItem> out = new ArrayList<>(k);
        int previous = -1;
        while (out.size() < k) {
            int best = -1;
            for (int c = 0; c < count; c++) {
                int i = found[c];
                if (i < 0 || category[i] == previous) {
                    continue;
                }
                if (best < 0
                        || score[c] > score[best]
                        || (score[c] == score[best]
                                && items.get(i).itemId.compareTo(items.get(found[best]).itemId)
                                        < 0)) {
                    best = c;
                }
            }
            if (best < 0) {
                break;
            }
            int i = found[best];
            found[best] = -1;
            previous = category[i];
            out.add(RecalledItem.of(items.get(i), score[best]));
        }
        return out;
    }
}
