package io.pushline.schema.receipts;

/**
 * Counts of one (msgId, msgType, vendor) in one minute that a lifecycle subtask gathered between
 * two watermarks: what the metrics windows add up, instead of one record per count.
 */
public class MetricPartial {
    /** {@link MetricDelta#key()}: {@code msgId 0x00 msgType 0x00 vendor}. */
    public String key;

    /** Start of the minute, epoch ms (also the record's timestamp). */
    public long minute;

    public MetricAcc counts;

    public MetricPartial() {}

    public MetricPartial(String key, long minute, MetricAcc counts) {
        this.key = key;
        this.minute = minute;
        this.counts = counts;
    }
}
