package io.pushline.recall;

import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.TagCandidates;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/** Collects a tag's items and, at the end of the key (BATCH), emits its best {@code perTag}. */
class BestPerTag extends KeyedProcessFunction<String, Tuple2<String, Material>, TagCandidates> {
    private static final long serialVersionUID = 1L;
    private final LocalDate date;
    private final int perTag;
    private transient ListState<Material> items;

    BestPerTag(LocalDate date, int perTag) {
        this.date = date;
        this.perTag = perTag;
    }

    @Override
    public void open(OpenContext ctx) {
        items =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "tag-items", TypeInformation.of(Material.class)));
    }

    @Override
    public void processElement(
            Tuple2<String, Material> in, Context ctx, Collector<TagCandidates> out)
            throws Exception {
        items.add(in.f1);
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<TagCandidates> out)
            throws Exception {
        List<Material> all = new ArrayList<>();
        items.get().forEach(all::add);
        TagCandidates c = new TagCandidates();
        c.tag = ctx.getCurrentKey();
        c.items =
                new RecallScorer(date, RecallFunction.HALF_LIFE_DAYS)
                        .best(all, perTag)
                        .toArray(new Material[0]);
        out.collect(c);
        items.clear();
    }
}
