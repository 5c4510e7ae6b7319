package io.pushline.gateway;

import io.pushline.schema.VendorFeedback;
import io.pushline.schema.gateway.GatewayReceipt;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** Receipts go on; throttle and recovery reports leave as the pacer's {@link VendorFeedback}. */
public class SplitFeedback extends ProcessFunction<GatewayReceipt, GatewayReceipt> {
    private static final long serialVersionUID = 1L;

    public static final OutputTag<VendorFeedback> FEEDBACK =
            new OutputTag<>("gateway-feedback", TypeInformation.of(VendorFeedback.class));

    @Override
    public void processElement(GatewayReceipt r, Context ctx, Collector<GatewayReceipt> out) {
        if (!r.isFeedback()) {
            out.collect(r);
            return;
        }
        VendorFeedback f = new VendorFeedback();
        f.vendor = r.vendor;
        f.status =
                GatewayReceipt.THROTTLED.equals(r.type)
                        ? VendorFeedback.THROTTLED
                        : VendorFeedback.RECOVERED;
        f.code = GatewayReceipt.THROTTLED.equals(r.type) ? 429 : null;
        f.retryAfterMs = r.retryAfterMs > 0 ? r.retryAfterMs : null;
        f.ts = r.ts;
        ctx.output(FEEDBACK, f);
    }
}
