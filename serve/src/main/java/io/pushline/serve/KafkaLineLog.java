package io.pushline.serve;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app API's lines on Kafka, in transactions: a call is answered 2xx only after the transaction
 * holding its lines committed, and when a transaction fails it is aborted, so a {@code
 * read_committed} reader never sees a line whose call was refused.
 *
 * <p>A commit takes milliseconds, so one per call would cap the server at a few hundred calls a
 * second. One thread therefore commits in groups: it takes every call waiting (up to {@link
 * #MAX_GROUP} lines), sends them in one transaction and commits it, while the calls arriving
 * meanwhile wait for the next group. Under load a group holds what arrived during one commit.
 *
 * <p>The transactional id is new for each server ({@code pushline-serve-UUID}): servers never fence
 * each other. A server killed inside a transaction leaves it open until the broker aborts it after
 * {@code transaction.timeout.ms} (10 s here), during which {@code read_committed} readers of its
 * partitions wait.
 */
final class KafkaLineLog implements LineLog {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaLineLog.class);

    /** The most lines in one transaction. */
    static final int MAX_GROUP = 5_000;

    private record Call(List<Line> lines, CompletableFuture<Void> done) {}

    private final KafkaProducer<String, String> producer;
    private final LinkedBlockingQueue<Call> waiting = new LinkedBlockingQueue<>();
    private final Thread committer;
    private volatile boolean open = true;

    KafkaLineLog(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("transactional.id", "pushline-serve-" + UUID.randomUUID());
        p.putIfAbsent("transaction.timeout.ms", "10000");
        p.putIfAbsent("delivery.timeout.ms", "10000");
        p.putIfAbsent("request.timeout.ms", "5000");
        p.putIfAbsent("max.block.ms", "10000");
        p.putIfAbsent("linger.ms", "0");
        this.producer = new KafkaProducer<>(p);
        producer.initTransactions();
        this.committer = new Thread(this::run, "pushline-serve-commits");
        committer.setDaemon(true);
        committer.start();
    }

    @Override
    public CompletableFuture<Void> append(List<Line> lines) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (!open) {
            done.completeExceptionally(new IllegalStateException("the server is stopping"));
        } else {
            waiting.add(new Call(lines, done));
        }
        return done;
    }

    private void run() {
        List<Call> group = new ArrayList<>();
        while (open || !waiting.isEmpty()) {
            try {
                Call first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                group.add(first);
                int lines = first.lines().size();
                Call next;
                while (lines < MAX_GROUP && (next = waiting.poll()) != null) {
                    group.add(next);
                    lines += next.lines().size();
                }
                commit(group);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                group.clear();
            }
        }
        for (Call c; (c = waiting.poll()) != null; ) {
            c.done().completeExceptionally(new IllegalStateException("the server stopped"));
        }
    }

    private void commit(List<Call> group) {
        try {
            producer.beginTransaction();
            for (Call c : group) {
                for (Line l : c.lines()) {
                    producer.send(new ProducerRecord<>(l.topic(), l.key(), l.value()));
                }
            }
            producer.commitTransaction();
        } catch (RuntimeException e) {
            LOG.warn("a group of {} calls was not committed: {}", group.size(), e.toString());
            try {
                producer.abortTransaction();
            } catch (RuntimeException abortFailed) {
                // the broker aborts it after transaction.timeout.ms; the calls fail either way
                LOG.warn("could not abort: {}", abortFailed.toString());
            }
            group.forEach(c -> c.done().completeExceptionally(e));
            return;
        }
        group.forEach(c -> c.done().complete(null));
    }

    @Override
    public void close() {
        open = false;
        try {
            committer.join(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
