package io.pushline.vendors;

import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One vendor's send API. {@link #send} makes one call for a batch of sends of the same message
 * (same msgId, so same title and body) and answers each send, in order. It never completes
 * exceptionally: a call that fails as a whole answers every send {@link Answer.Outcome#UNAVAILABLE}
 * (or THROTTLED), so the caller decides on retries in one place.
 */
public interface VendorClient extends AutoCloseable {
    Vendor vendor();

    /** The most sends one call may carry (1 where the vendor has no multi-token send). */
    int maxBatch();

    CompletableFuture<List<Answer>> send(List<SendRecord> sends);

    @Override
    void close();
}
