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
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app API's lines on Kafka, in transactions: a call is answered 2xx only after the transaction
 * holding its lines committed, and when a transaction fails it is aborted, so a {@code
 * read_committed} reader never sees a line whose call was refused.
 *
 * <p>A commit takes milliseconds, so one per call would cap the server at a few hundred calls a
 * second. Committer threads ({@link #COMMITTERS}) therefore commit in groups: each takes every call
 * waiting (up to {@link #MAX_GROUP} lines), sends them in one transaction and commits it, while the
 * calls arriving meanwhile go to the next free committer. A call's lines are always in one
 * transaction.
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

    /**
     * Committers working at once, each with its own producer: while one waits for its commit, the
     * next gathers the calls that arrived meanwhile. With one, throughput was bound by the clients
     * in flight divided by one commit's round trips.
     */
    static final int COMMITTERS = 1;

    private final Properties config;
    private final LinkedBlockingQueue<Call> waiting = new LinkedBlockingQueue<>();
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean open = true;

    KafkaLineLog(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.putIfAbsent("transaction.timeout.ms", "10000");
        p.putIfAbsent("delivery.timeout.ms", "10000");
        p.putIfAbsent("request.timeout.ms", "5000");
        p.putIfAbsent("max.block.ms", "10000");
        p.putIfAbsent("linger.ms", "0");
        this.config = p;
        for (int i = 0; i < COMMITTERS; i++) {
            // the producers made at start: a broker that cannot be reached stops start-up here
            Committer c = new Committer(newProducer());
            Thread t = new Thread(c::run, "pushline-serve-commits-" + i);
            t.setDaemon(true);
            committers.add(t);
        }
        committers.forEach(Thread::start);
    }

    /** A producer with a transactional id of its own (servers and restarts never fence). */
    private KafkaProducer<String, String> newProducer() {
        Properties p = new Properties();
        p.putAll(config);
        p.put("transactional.id", "pushline-serve-" + UUID.randomUUID());
        KafkaProducer<String, String> made = new KafkaProducer<>(p);
        try {
            made.initTransactions();
        } catch (RuntimeException e) {
            made.close(Duration.ZERO);
            throw e;
        }
        return made;
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

    /** One committer thread and its producer (null: to be made again after a fatal error). */
    private final class Committer {
        private KafkaProducer<String, String> producer;

        Committer(KafkaProducer<String, String> producer) {
            this.producer = producer;
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
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
        }

        private void commit(List<Call> group) {
            try {
                if (producer == null) {
                    producer = newProducer();
                }
                producer.beginTransaction();
                for (Call c : group) {
                    for (Line l : c.lines()) {
                        producer.send(new ProducerRecord<>(l.topic(), l.key(), l.value()));
                    }
                }
                producer.commitTransaction();
            } catch (RuntimeException e) {
                LOG.warn("a group of {} calls was not committed: {}", group.size(), e.toString());
                abortOrReplace(e);
                group.forEach(c -> c.done().completeExceptionally(e));
                return;
            }
            group.forEach(c -> c.done().complete(null));
        }

        /**
         * After a failed transaction: aborted, so that the producer goes on; when it cannot be (a
         * fenced or otherwise fatal producer), it is closed and the next group makes a new one. The
         * broker aborts what the old one left open after transaction.timeout.ms.
         */
        private void abortOrReplace(RuntimeException failure) {
            if (producer == null) {
                return;
            }
            boolean fatal =
                    failure instanceof ProducerFencedException
                            || failure instanceof InvalidProducerEpochException
                            || failure instanceof OutOfOrderSequenceException
                            || failure instanceof AuthorizationException
                            || failure instanceof UnsupportedVersionException;
            if (!fatal) {
                try {
                    producer.abortTransaction();
                    return;
                } catch (RuntimeException abortFailed) {
                    LOG.warn("could not abort, making a new producer: {}", abortFailed.toString());
                }
            }
            try {
                producer.close(Duration.ZERO);
            } catch (RuntimeException ignored) {
                // it is being replaced
            }
            producer = null;
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            for (Thread t : committers) {
                t.join(15_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
