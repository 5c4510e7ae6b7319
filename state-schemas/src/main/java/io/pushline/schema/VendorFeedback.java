package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A record of {@code vendor.feedback}: a vendor gateway's report that a vendor throttles (HTTP 429
 * or 5xx: {@code "status":"throttled"}) or has recovered ({@code "status":"recovered"}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"vendor", "status", "code", "retryAfterMs", "ts"})
public class VendorFeedback {
    public static final String THROTTLED = "throttled";
    public static final String RECOVERED = "recovered";

    public String vendor;
    public String status;
    public Integer code;

    /** A throttle's Retry-After, in ms, when the vendor gave one. */
    public Long retryAfterMs;

    public Long ts;

    public VendorFeedback() {}

    /** Why this record cannot be used, or null when it can. */
    public String problem() {
        if (vendor == null) {
            return "missing field 'vendor'";
        }
        if (Vendor.fromWire(vendor) == null) {
            return "unknown vendor '" + vendor + "'";
        }
        if (!THROTTLED.equals(status) && !RECOVERED.equals(status)) {
            return "field 'status' must be 'throttled' or 'recovered'";
        }
        return null;
    }
}
