package io.pushline.serve;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where the app API's calls become lines of the input topics. A future completes once all the lines
 * of its call are committed, so the 2xx answer that waits for it means they will be decided; it
 * completes exceptionally when none of them was committed.
 */
interface LineLog extends AutoCloseable {
    /** A line of a topic, with its Kafka key. */
    record Line(String topic, String key, String value) {}

    CompletableFuture<Void> append(List<Line> lines);

    default CompletableFuture<Void> append(String topic, String key, String value) {
        return append(List.of(new Line(topic, key, value)));
    }

    @Override
    void close();
}
