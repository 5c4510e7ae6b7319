package io.pushline.dispatch.pacing;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.udf.TextRecordFunction;
import org.apache.flink.util.Collector;

/** Reads the pacer's reports back from {@code push.pacing}; anything else is a dead letter. */
public class StatusReports extends TextRecordFunction<PacingStatus> {
    private static final long serialVersionUID = 1L;

    public StatusReports() {
        super(Topics.PACING_STATUS);
    }

    @Override
    protected void handle(String text, Context ctx, Collector<PacingStatus> out) {
        PacingStatus s;
        try {
            s = Json.read(text, PacingStatus.class);
        } catch (RuntimeException e) {
            reject(ctx, "not a pacing report: " + Json.problem(e), text);
            return;
        }
        if (s == null || Vendor.fromWire(s.vendor) == null) {
            reject(ctx, "pacing report without a known vendor", text);
            return;
        }
        out.collect(s);
    }

    private static void reject(Context ctx, String reason, String text) {
        ctx.output(
                DispatchTags.DEAD_LETTERS, DeadLetter.of(Topics.PACING_STATUS, null, reason, text));
    }
}
