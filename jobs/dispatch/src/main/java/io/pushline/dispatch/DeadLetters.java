package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/** The dead letters of every stage, gathered while the stages are wired, as one stream. */
final class DeadLetters {
    private final List<DataStream<DeadLetter>> all = new ArrayList<>();

    void add(DataStream<DeadLetter> more) {
        all.add(more);
    }

    /** The dead letters {@code stage} puts on {@link DispatchTags#DEAD_LETTERS}. */
    void of(SingleOutputStreamOperator<?> stage) {
        add(stage.getSideOutput(DispatchTags.DEAD_LETTERS));
    }

    @SuppressWarnings("unchecked")
    DataStream<DeadLetter> union() {
        DataStream<DeadLetter> first = all.get(0);
        return all.size() == 1
                ? first
                : first.union(all.subList(1, all.size()).toArray(new DataStream[0]));
    }
}
