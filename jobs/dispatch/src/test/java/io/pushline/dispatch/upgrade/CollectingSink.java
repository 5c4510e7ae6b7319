package io.pushline.dispatch.upgrade;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A stateless sink into a queue of this JVM, named by {@code id}: a job on the MiniCluster can be
 * stopped with a savepoint and restored without any sink state to carry over.
 */
final class CollectingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;
    private static final Map<String, Queue<Object>> OUT = new ConcurrentHashMap<>();

    private final String id;

    CollectingSink(String id) {
        this.id = id;
    }

    @SuppressWarnings("unchecked")
    static <T> List<T> collected(String id) {
        return new ArrayList<>(
                (Queue<T>) (Queue<?>) OUT.getOrDefault(id, new ConcurrentLinkedQueue<>()));
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        Queue<Object> q = OUT.computeIfAbsent(id, k -> new ConcurrentLinkedQueue<>());
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context ctx) {
                q.add(element);
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }
}
