package io.pushline.bench;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/** Passes records through and counts them in an accumulator, read from the job's result. */
final class RecordCount<T> extends RichMapFunction<T, T> {
    private static final long serialVersionUID = 1L;
    private final String accumulator;
    private transient LongCounter records;

    RecordCount(String accumulator) {
        this.accumulator = accumulator;
    }

    @Override
    public void open(OpenContext ctx) {
        records = getRuntimeContext().getLongCounter(accumulator);
    }

    @Override
    public T map(T t) {
        records.add(1L);
        return t;
    }
}
