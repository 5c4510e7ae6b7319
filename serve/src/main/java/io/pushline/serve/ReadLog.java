package io.pushline.serve;

import java.util.List;

/**
 * Where the reads this server marks are told onwards: the dispatch job counts them for the receipts
 * job's "read in inbox" ({@link KafkaReadLog}: {@code inbox.events}).
 */
public interface ReadLog extends AutoCloseable {
    /** {@code uid} read {@code msgIds} (all in its inbox) at {@code ts}. */
    void read(String uid, List<String> msgIds, long ts);

    @Override
    void close();
}
