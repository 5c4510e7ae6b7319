package io.pushline.schema.longconn;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What the long-connection job tells the receipts job ({@code push.receipts}): an ack, a retry, a
 * fallback or a give-up of one (msgId, deviceId), with the attempt and delay of the contract's
 * action. {@code fallbackVendor} names the channel a fallback went to; null when the device had
 * none (the message was undeliverable).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "ts",
    "type",
    "msgId",
    "deviceId",
    "uid",
    "vendor",
    "attempt",
    "delayMs",
    "fallbackVendor"
})
public class LongconnReceipt {
    public static final String ACKED = "longconn_acked";
    public static final String RETRY = "longconn_retry";
    public static final String FALLBACK = "longconn_fallback";
    public static final String GIVE_UP = "longconn_give_up";

    public long ts;
    public String type;
    public String msgId;
    public String deviceId;
    public String uid;
    public String vendor = "longconn";
    public int attempt;
    public Long delayMs;
    public String fallbackVendor;

    public LongconnReceipt() {}
}
