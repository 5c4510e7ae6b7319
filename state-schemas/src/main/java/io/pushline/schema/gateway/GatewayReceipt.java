package io.pushline.schema.gateway;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What the gateway learnt from a vendor's answer. A receipt of {@code push.receipts} ({@code sent},
 * {@code failed} with the vendor's code, {@code token_invalid} with the refused token, as the
 * receipts job reads them), or, with {@code type} {@code throttled} or {@code recovered}, a report
 * for the pacer on {@code vendor.feedback} ({@link #retryAfterMs} from the vendor's Retry-After).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "msgId", "deviceId", "vendor", "ts", "code", "token", "latencyMs"})
public class GatewayReceipt {
    public static final String SENT = "sent";
    public static final String FAILED = "failed";
    public static final String TOKEN_INVALID = "token_invalid";
    public static final String THROTTLED = "throttled";
    public static final String RECOVERED = "recovered";

    public String type;
    public String msgId;
    public String deviceId;
    public String vendor;
    public long ts;
    public String code;
    public String token;

    /**
     * Receipts of an answer: milliseconds from the gateway's first call for the send to the answer
     * it went by, its retries included (what a vendor's latency and throttles cost a send).
     */
    public Long latencyMs;

    /** Feedback only. */
    @JsonIgnore public long retryAfterMs;

    public GatewayReceipt() {}

    @JsonIgnore
    public boolean isFeedback() {
        return THROTTLED.equals(type) || RECOVERED.equals(type);
    }
}
