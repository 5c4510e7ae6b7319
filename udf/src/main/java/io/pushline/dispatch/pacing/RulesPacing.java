package io.pushline.dispatch.pacing;

import io.pushline.dispatch.gate.Rules;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.schema.Vendor;
import io.pushline.schema.pacing.PacingControl;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Turns each accepted rules document into one CONFIG control per vendor: the job's pacing options
 * with the document's {@code pacing} section on top, or the options alone when it has none.
 */
public class RulesPacing implements FlatMapFunction<String, PacingControl> {
    private static final long serialVersionUID = 1L;

    private final PacingConfig options;

    public RulesPacing(PacingConfig options) {
        this.options = options;
    }

    @Override
    public void flatMap(String text, Collector<PacingControl> out) {
        Rules rules = RulesParser.parse(text);
        PacingConfig c = rules.pacing == null ? options : options.with(rules.pacing);
        for (Vendor v : Vendor.values()) {
            PacingControl control = new PacingControl();
            control.vendor = v.wireName();
            control.kind = PacingControl.CONFIG;
            control.maxRate = c.rate(v.wireName());
            control.weights = c.weights();
            control.realtimeLevel = c.realtimeLevel();
            control.fromRules = rules.pacing != null;
            out.collect(control);
        }
    }
}
