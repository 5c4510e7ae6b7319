package io.pushline.dispatch.gate;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.udf.RulesException;
import io.pushline.udf.TextRecordFunction;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

/**
 * Checks each new version of the rules from the {@code push.rules} topic: a good one goes on to the
 * gate (broadcast), a bad one to the dead letters with the reason, and the rules in force stay.
 */
public class RulesUpdates extends TextRecordFunction<String> {
    private static final long serialVersionUID = 1L;
    private final Duration stateTtl;
    private transient Counter accepted;
    private transient Counter rejected;

    public RulesUpdates(Duration stateTtl) {
        super("push.rules");
        this.stateTtl = stateTtl;
    }

    @Override
    public void open(OpenContext openContext) {
        var g = getRuntimeContext().getMetricGroup().addGroup("rules");
        accepted = g.counter("accepted");
        rejected = g.counter("rejected");
    }

    @Override
    protected void handle(String text, Context ctx, Collector<String> out) {
        try {
            check(RulesParser.parse(text), stateTtl);
            accepted.inc();
            out.collect(text);
        } catch (RulesException e) {
            rejected.inc();
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    DeadLetter.of("push.rules", null, "rules rejected: " + e.getMessage(), text));
        }
    }

    /**
     * Rules that look further back than the state is kept would let TTL change decisions: refused.
     */
    public static void check(Rules rules, Duration stateTtl) {
        if (rules.lookBack().compareTo(stateTtl) > 0) {
            throw new RulesException(
                    "the rules look back "
                            + rules.lookBack()
                            + " but gate.state-ttl is "
                            + stateTtl
                            + ": raise gate.state-ttl or shorten the rule");
        }
    }
}
