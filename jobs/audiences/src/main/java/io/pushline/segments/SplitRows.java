package io.pushline.segments;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.segments.MemberRow;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Passes readable rows on and turns the others into dead letters, counted by reason (accumulators
 * {@code rejected: REASON}, which the build's report prints) — never fatal.
 */
class SplitRows extends ProcessFunction<MemberRow, MemberRow> {
    private static final long serialVersionUID = 1L;
    static final String REJECTED_PREFIX = "rejected: ";
    static final String ROWS = "rows";

    private final OutputTag<DeadLetter> dead;
    private transient Map<String, LongCounter> byReason;
    private transient LongCounter rows;
    private transient Counter rejected;

    SplitRows(OutputTag<DeadLetter> dead) {
        this.dead = dead;
    }

    @Override
    public void open(OpenContext ctx) {
        byReason = new HashMap<>();
        rows = getRuntimeContext().getLongCounter(ROWS);
        rejected = getRuntimeContext().getMetricGroup().counter("rowsRejected");
    }

    @Override
    public void processElement(MemberRow row, Context ctx, Collector<MemberRow> out) {
        rows.add(1);
        if (row.dead == null) {
            out.collect(row);
            return;
        }
        rejected.inc();
        byReason.computeIfAbsent(
                        reasonClass(row.dead.reason),
                        r -> getRuntimeContext().getLongCounter(REJECTED_PREFIX + r))
                .add(1);
        ctx.output(dead, row.dead);
    }

    /** The reason without its details (a parser's message varies by input). */
    static String reasonClass(String reason) {
        int colon = reason.indexOf(':');
        return colon < 0 ? reason : reason.substring(0, colon);
    }
}
