package io.pushline.recall;

import io.pushline.recall.score.CandidateIndex;
import io.pushline.recall.score.RecallScorer;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.RecalledItem;
import io.pushline.schema.recall.TagCandidates;
import io.pushline.schema.recall.UserRecall;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Per user: the profile and the items to leave out, gathered until the end of the key (BATCH
 * processes the broadcast candidates first), then scored with {@link RecallScorer}.
 */
class RecallFunction
        extends KeyedBroadcastProcessFunction<String, RecallInput, TagCandidates, UserRecall> {
    private static final long serialVersionUID = 1L;
    static final double HALF_LIFE_DAYS = 3;

    private final LocalDate date;
    private final int k;
    private final int pushedDays;
    private final int perTag;
    private transient ValueState<RecallInput> profile;
    private transient ListState<String> excluded;
    private transient RecallScorer scorer;
    private transient CandidateIndex index;

    RecallFunction(LocalDate date, int k, int pushedDays, int perTag) {
        this.date = date;
        this.k = k;
        this.pushedDays = pushedDays;
        this.perTag = perTag;
    }

    @Override
    public void open(OpenContext ctx) {
        scorer = new RecallScorer(date, HALF_LIFE_DAYS);
        profile =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "recall-profile", TypeInformation.of(RecallInput.class)));
        excluded =
                getRuntimeContext()
                        .getListState(new ListStateDescriptor<>("recall-excluded", Types.STRING));
    }

    @Override
    public void processElement(RecallInput in, ReadOnlyContext ctx, Collector<UserRecall> out)
            throws Exception {
        long midnight = date.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        if (RecallInput.PROFILE.equals(in.kind)) {
            profile.update(in);
        } else if (RecallInput.CONSUMED.equals(in.kind)) {
            excluded.add(in.itemId);
        } else if (RecallInput.PUSHED.equals(in.kind)
                && in.ts >= midnight - pushedDays * 86_400_000L) {
            excluded.add(in.itemId);
        }
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void processBroadcastElement(TagCandidates c, Context ctx, Collector<UserRecall> out)
            throws Exception {
        // one subtask's best of the tag: the tag's best are the best of all subtasks' bests
        var state = ctx.getBroadcastState(RecallJob.CANDIDATES);
        TagCandidates before = state.get(c.tag);
        if (before != null) {
            List<Material> all = new ArrayList<>(Arrays.asList(before.items));
            all.addAll(Arrays.asList(c.items));
            c = LocalBest.candidates(c.tag, scorer.best(all, perTag));
        }
        state.put(c.tag, c);
        index = null; // rebuilt with the new candidates at the next user
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<UserRecall> out) throws Exception {
        RecallInput p = profile.value();
        if (p == null || p.tags == null) {
            return; // history without a profile: not an active user
        }
        if (index == null) {
            Map<String, Material[]> candidates = new HashMap<>();
            for (Map.Entry<String, TagCandidates> e :
                    ctx.getBroadcastState(RecallJob.CANDIDATES).immutableEntries()) {
                candidates.put(e.getKey(), e.getValue().items);
            }
            index = new CandidateIndex(candidates, scorer);
        }
        List<RecalledItem> items = index.recall(p.tags, p.weights, excluded.get(), k);
        UserRecall r = new UserRecall();
        r.uid = ctx.getCurrentKey();
        r.date = date.toString();
        r.tz = p.tz;
        r.items = items.toArray(new RecalledItem[0]);
        out.collect(r);
        profile.clear();
        excluded.clear();
    }
}
