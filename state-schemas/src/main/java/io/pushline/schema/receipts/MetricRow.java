package io.pushline.schema.receipts;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A row of the metrics tables and a record of {@code push.metrics}: the counts of one (period,
 * msgId, msgType, vendor). Written again whenever a late event changes it (an upsert by {@link
 * #grain}, {@link #start}, msgId, msgType, vendor): readers keep the last version.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({
    "grain",
    "start",
    "msgId",
    "msgType",
    "vendor",
    "passed",
    "dropped",
    "drops",
    "sent",
    "delivered",
    "clicked",
    "failed",
    "fails",
    "tokenInvalid",
    "inboxRead",
    "latencyCount",
    "latencyP50",
    "latencyP90",
    "latencyP99",
    "latencyMax",
    "lcAcked",
    "lcRetries",
    "lcFallbacks",
    "lcGiveUps",
    "compensationCount",
    "compensationP50",
    "compensationP90",
    "compensationP99",
    "compensationMax"
})
public class MetricRow {
    public static final String MINUTE = "minute";
    public static final String DAY = "day";

    /** {@code minute} or {@code day} (UTC). */
    public String grain;

    /** Start of the period, epoch ms. */
    public long start;

    public String msgId;
    public String msgType;
    public String vendor;
    public long passed;
    public long dropped;
    public Map<String, Long> drops = new TreeMap<>();
    public long sent;
    public long delivered;
    public long clicked;
    public long failed;
    public Map<String, Long> fails = new TreeMap<>();
    public long tokenInvalid;

    /** Uids that read the message in their inbox. */
    public long inboxRead;

    /** Delivery latency (ms from the push's time): how many, percentiles and max. */
    public long latencyCount;

    public long latencyP50;
    public long latencyP90;
    public long latencyP99;
    public long latencyMax;

    /** Long connection: acked, retries made, fallen back, given up. */
    public long lcAcked;

    public long lcRetries;
    public long lcFallbacks;
    public long lcGiveUps;

    /** Compensation time (ms from the first send to an ack after a retry): count, percentiles. */
    public long compensationCount;

    public long compensationP50;
    public long compensationP90;
    public long compensationP99;
    public long compensationMax;

    public MetricRow() {}

    /** The upsert key on push.metrics. */
    @JsonIgnore
    public String key() {
        return grain + '/' + start + '/' + msgId + '/' + msgType + '/' + vendor;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MetricRow)) {
            return false;
        }
        MetricRow r = (MetricRow) o;
        return start == r.start
                && passed == r.passed
                && dropped == r.dropped
                && sent == r.sent
                && delivered == r.delivered
                && clicked == r.clicked
                && failed == r.failed
                && tokenInvalid == r.tokenInvalid
                && inboxRead == r.inboxRead
                && latencyCount == r.latencyCount
                && latencyP50 == r.latencyP50
                && latencyP90 == r.latencyP90
                && latencyP99 == r.latencyP99
                && latencyMax == r.latencyMax
                && lcAcked == r.lcAcked
                && lcRetries == r.lcRetries
                && lcFallbacks == r.lcFallbacks
                && lcGiveUps == r.lcGiveUps
                && compensationCount == r.compensationCount
                && compensationP50 == r.compensationP50
                && compensationP90 == r.compensationP90
                && compensationP99 == r.compensationP99
                && compensationMax == r.compensationMax
                && Objects.equals(grain, r.grain)
                && Objects.equals(msgId, r.msgId)
                && Objects.equals(msgType, r.msgType)
                && Objects.equals(vendor, r.vendor)
                && Objects.equals(drops, r.drops)
                && Objects.equals(fails, r.fails);
    }

    @Override
    public int hashCode() {
        return Objects.hash(grain, start, msgId, msgType, vendor);
    }

    @Override
    public String toString() {
        return io.pushline.schema.Json.write(this);
    }
}
