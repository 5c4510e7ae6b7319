package io.pushline.dispatch.pacing;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.VendorFeedback;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingControl;
import io.pushline.udf.TextRecordFunction;
import org.apache.flink.util.Collector;

/**
 * Reads vendor gateways' reports from {@code vendor.feedback}: a throttling or recovery report
 * becomes a control for that vendor's pacer; anything else is a dead letter with the reason.
 */
public class FeedbackControls extends TextRecordFunction<PacingControl> {
    private static final long serialVersionUID = 1L;

    public FeedbackControls() {
        super(Topics.VENDOR_FEEDBACK);
    }

    @Override
    protected void handle(String text, Context ctx, Collector<PacingControl> out) {
        VendorFeedback f;
        try {
            f = Json.read(text, VendorFeedback.class);
        } catch (RuntimeException e) {
            reject(ctx, "not a feedback record: " + Json.problem(e), text);
            return;
        }
        String problem = f == null ? "empty record" : f.problem();
        if (problem != null) {
            reject(ctx, problem, text);
            return;
        }
        String kind =
                VendorFeedback.THROTTLED.equals(f.status)
                        ? PacingControl.THROTTLED
                        : PacingControl.RECOVERED;
        out.collect(
                PacingControl.feedback(
                        f.vendor,
                        kind,
                        f.code == null ? 0 : f.code,
                        f.retryAfterMs == null ? 0 : Math.max(0, f.retryAfterMs)));
    }

    private static void reject(Context ctx, String reason, String text) {
        ctx.output(
                DispatchTags.DEAD_LETTERS,
                DeadLetter.of(Topics.VENDOR_FEEDBACK, null, reason, text));
    }
}
