package io.pushline.recall;

import io.pushline.recall.score.RecallScorer;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.TagCandidates;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.MapPartitionFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.util.Collector;

/**
 * A subtask's best {@code perTag} items per tag, over its whole share of the catalogue: the global
 * best of a tag is among the local bests, so only these are broadcast, and {@link RecallFunction}
 * keeps the best of them.
 */
class LocalBest implements MapPartitionFunction<Tuple2<String, Material>, TagCandidates> {
    private static final long serialVersionUID = 1L;
    private static final int BATCH = 10_000;
    private final LocalDate date;
    private final int perTag;

    LocalBest(LocalDate date, int perTag) {
        this.date = date;
        this.perTag = perTag;
    }

    @Override
    public void mapPartition(Iterable<Tuple2<String, Material>> in, Collector<TagCandidates> out) {
        RecallScorer scorer = new RecallScorer(date, RecallFunction.HALF_LIFE_DAYS);
        Map<String, List<Material>> byTag = new HashMap<>();
        for (Tuple2<String, Material> t : in) {
            List<Material> l = byTag.computeIfAbsent(t.f0, x -> new ArrayList<>());
            l.add(t.f1);
            if (l.size() >= BATCH) { // keep memory bounded: shrink to the best so far
                byTag.put(t.f0, new ArrayList<>(scorer.best(l, perTag)));
            }
        }
        byTag.forEach((tag, items) -> out.collect(candidates(tag, scorer.best(items, perTag))));
    }

    static TagCandidates candidates(String tag, List<Material> items) {
        TagCandidates c = new TagCandidates();
        c.tag = tag;
        c.items = items.toArray(new Material[0]);
        return c;
    }
}
