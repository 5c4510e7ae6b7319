package io.pushline.recall;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.TagCandidates;
import io.pushline.schema.recall.UserRecall;
import java.time.LocalDate;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The nightly recall job (BATCH): for each user with an interest profile, the top {@code k} items
 * by interest match × quality × freshness, without items the user consumed or was pushed in the
 * last {@code pushedDays} days, never two of one category in a row.
 *
 * <pre>
 * materials ─ per tag (keyBy tag) ─ best perTag ─ broadcast ─┐
 * profiles, consumption, pushes ─ keyBy uid ──────────────── recall ─ user_recall
 * </pre>
 *
 * Users are scored against their own tags' candidates only: never a users × items product.
 */
public final class RecallJob {
    public static final String NAME = "pushline-recall";

    static final MapStateDescriptor<String, TagCandidates> CANDIDATES =
            new MapStateDescriptor<>(
                    "recall-candidates", Types.STRING, TypeInformation.of(TagCandidates.class));

    private RecallJob() {}

    public static DataStream<UserRecall> build(
            DataStream<RecallInput> users,
            DataStream<Material> materials,
            LocalDate date,
            int k,
            int pushedDays,
            int perTag) {
        BroadcastStream<TagCandidates> candidates =
                materials
                        .flatMap(
                                (Material m,
                                        org.apache.flink.util.Collector<Tuple2<String, Material>>
                                                out) -> {
                                    for (String t : m.tags) {
                                        out.collect(Tuple2.of(t, m));
                                    }
                                })
                        .returns(Types.TUPLE(Types.STRING, TypeInformation.of(Material.class)))
                        .uid("materials-by-tag")
                        .name("Materials by tag")
                        .keyBy(t -> t.f0)
                        .process(new BestPerTag(date, perTag))
                        .uid("best-per-tag")
                        .name("Best items per tag")
                        .broadcast(CANDIDATES);
        return users.keyBy(u -> u.uid)
                .connect(candidates)
                .process(new RecallFunction(date, k, pushedDays))
                .uid("recall")
                .name("Recall per user");
    }
}
