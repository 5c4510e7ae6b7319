package io.pushline.longconn;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.longconn.LongconnEvent;
import java.time.Duration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Parsed input into tracker events; bad records, and acks or presence stamped further ahead of the
 * wall clock than {@code maxFuture} (they would wait in state unseen), to the dead letters.
 */
public class SplitInput extends ProcessFunction<ParsedRecord, LongconnEvent> {
    private static final long serialVersionUID = 1L;

    private final long maxFutureMs;
    private transient Counter dead;

    public SplitInput(Duration maxFuture) {
        this.maxFutureMs = maxFuture.toMillis();
    }

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
        dead = getRuntimeContext().getMetricGroup().addGroup("longconn").counter("badRecords");
    }

    @Override
    public void processElement(ParsedRecord r, Context ctx, Collector<LongconnEvent> out) {
        if (r.dead != null) {
            dead.inc();
            ctx.output(DispatchTags.DEAD_LETTERS, r.dead);
            return;
        }
        if (r.longconn == null) {
            return;
        }
        long now = ctx.timerService().currentProcessingTime();
        if (maxFutureMs > 0 && r.longconn.ts > now + maxFutureMs) {
            dead.inc();
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    DeadLetter.of(
                            r.source,
                            r.position,
                            "field 'ts' is "
                                    + (r.longconn.ts - now)
                                    + " ms ahead of the wall clock (more than longconn.max-future)",
                            io.pushline.schema.Json.write(r.longconn)));
            return;
        }
        out.collect(r.longconn);
    }
}
