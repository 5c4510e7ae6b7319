package io.pushline.bench;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/** The baseline: one ValueState read and write per event. */
final class CountPerKey<T> extends KeyedProcessFunction<String, T, Long> {
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext ctx) {
        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public void processElement(T value, Context ctx, Collector<Long> out) throws Exception {
        Long c = count.value();
        count.update(c == null ? 1 : c + 1);
    }
}
