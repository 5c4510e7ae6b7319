package io.pushline.bench.hostile;

import io.pushline.common.CommittedRecords;
import io.pushline.common.KafkaIO;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Plays {@link HostileCases} against a running dispatch job from outside, through Kafka only: each
 * hostile record is followed by a canary (a plain push to a device bound at the start), and the run
 * checks, as a read_committed reader sees the job's output, that every canary is decided, that
 * every record meant to be refused is a dead letter (matched by topic and partition-offset, or by
 * topic where the stage knows no offset), that no secret token shows in a dead letter or in the
 * given logs, and that the job never stopped.
 */
public final class HostileRun implements AutoCloseable {
    /** What a run saw. */
    public record Report(
            int inputs,
            int jobsStopped,
            int canariesDecided,
            int deadLettered,
            int deadLettersExpected,
            int tokensLeaked,
            List<String> problems) {
        /** The line the bench prints. */
        public String line() {
            return String.format(
                    "hostile inputs %d, jobs stopped %d, canaries decided %d, tokens leaked %d",
                    inputs, jobsStopped, canariesDecided, tokensLeaked);
        }

        public boolean passed() {
            return jobsStopped == 0
                    && canariesDecided == inputs
                    && deadLettered == deadLettersExpected
                    && tokensLeaked == 0
                    && problems.isEmpty();
        }
    }

    private final String run;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Tail decisions;
    private final Tail deadLetters;
    private final String canaryToken;

    /**
     * Binds the canary device; reading the job's output starts from here.
     *
     * @param run makes this run's ids unique (several runs may share a stack)
     */
    public HostileRun(String bootstrap, Properties clientProperties, String run) throws Exception {
        this.run = run;
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "1048576");
        producer = new KafkaProducer<>(p);
        decisions = new Tail(bootstrap, clientProperties, Topics.DECISIONS);
        deadLetters = new Tail(bootstrap, clientProperties, Topics.DLQ);
        canaryToken = "SECRET-canary-" + run;
        long now = System.currentTimeMillis();
        send(
                Topics.DEVICE_EVENTS,
                "canary-" + run,
                ("{\"ts\":"
                                + (now - 5_000)
                                + ",\"type\":\"bind\",\"deviceId\":\"canary-"
                                + run
                                + "\",\"uid\":\"canary-u-"
                                + run
                                + "\",\"vendor\":\"fcm\",\"token\":\""
                                + canaryToken
                                + "\",\"tz\":\"UTC\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }

    private RecordMetadata send(String topic, String key, byte[] value) throws Exception {
        return producer.send(
                        new ProducerRecord<>(
                                topic,
                                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                                value))
                .get();
    }

    private String canary(int i) throws Exception {
        String msgId = "canary-" + run + "-" + (i < 0 ? "warm-up" : i);
        send(
                Topics.PUSH_REQUESTS,
                msgId,
                ("{\"ts\":"
                                + System.currentTimeMillis()
                                + ",\"type\":\"push\",\"msgId\":\""
                                + msgId
                                + "\",\"msgType\":\"canary\",\"level\":3,\"title\":\"canary\","
                                + "\"body\":\"canary\",\"target\":{\"uids\":[\"canary-u-"
                                + run
                                + "\"]}}")
                        .getBytes(StandardCharsets.UTF_8));
        return msgId;
    }

    /** Where a case's record landed, and its canary. */
    private record Sent(HostileCase c, String position, String canary) {}

    /**
     * Each case, then its canary, waiting up to {@code perCase} for both to show before the next:
     * one record at a time, as an attacker would.
     *
     * @param stops how often the job has stopped (failed or restarted) so far
     */
    public Report oneByOne(
            List<HostileCase> cases,
            List<String> secrets,
            Duration perCase,
            IntSupplier stops,
            Consumer<String> progress)
            throws Exception {
        List<Sent> sent = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Matcher m = new Matcher();
        for (int i = 0; i < cases.size(); i++) {
            long started = System.nanoTime();
            Sent s = send(cases.get(i), i);
            sent.add(s);
            long deadline = started + perCase.toNanos();
            while (!m.done(s) && System.nanoTime() < deadline) {
                m.poll();
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            String head = String.format("[%d/%d] %s: ", i + 1, cases.size(), s.c);
            if (!m.done(s)) {
                problems.add(describe(s, m));
                progress.accept(head + "FAILED after " + ms + " ms: " + describe(s, m));
            } else {
                DeadLetter d = m.matched.get(s);
                progress.accept(
                        head
                                + (d == null ? "decided" : "dead letter: " + d.reason)
                                + ", canary decided in "
                                + ms
                                + " ms");
            }
        }
        return report(sent, secrets, stops, problems, m);
    }

    /**
     * Sends a plain push and waits up to {@code wait} for its decision: whether the job reads and
     * decides at all, before any case is played.
     */
    public boolean warmUp(Duration wait) throws Exception {
        String msgId = canary(-1);
        Matcher m = new Matcher();
        long deadline = System.nanoTime() + wait.toNanos();
        while (!m.decided.contains(msgId) && System.nanoTime() < deadline) {
            m.poll();
        }
        return m.decided.contains(msgId);
    }

    /** All cases and their canaries at once, then waits up to {@code total} for the outcomes. */
    public Report allAtOnce(
            List<HostileCase> cases, List<String> secrets, Duration total, IntSupplier stops)
            throws Exception {
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            sent.add(send(cases.get(i), i));
        }
        Matcher m = new Matcher();
        long deadline = System.nanoTime() + total.toNanos();
        while (!sent.stream().allMatch(m::done) && System.nanoTime() < deadline) {
            m.poll();
            if (stops.getAsInt() > 0) {
                break;
            }
        }
        List<String> problems = new ArrayList<>();
        for (Sent s : sent) {
            if (!m.done(s)) {
                problems.add(describe(s, m));
            }
        }
        return report(sent, secrets, stops, problems, m);
    }

    private Sent send(HostileCase c, int i) throws Exception {
        RecordMetadata md = send(c.topic(), "hostile-" + run, c.value());
        return new Sent(c, md.partition() + "-" + md.offset(), canary(i));
    }

    private String describe(Sent s, Matcher m) {
        return s.c
                + " (at "
                + s.position
                + "): "
                + (m.decided.contains(s.canary) ? "" : "its canary was not decided; ")
                + (s.c.deadLetter() && !m.matched.containsKey(s)
                        ? "no dead letter came out for it"
                        : "");
    }

    private Report report(
            List<Sent> sent,
            List<String> secrets,
            IntSupplier stops,
            List<String> problems,
            Matcher m) {
        int decided = 0;
        int expected = 0;
        for (Sent s : sent) {
            decided += m.decided.contains(s.canary) ? 1 : 0;
            expected += s.c.deadLetter() ? 1 : 0;
            DeadLetter d = m.matched.get(s);
            if (d != null && (d.reason == null || d.reason.isBlank())) {
                problems.add(s.c + ": its dead letter gives no reason");
            }
        }
        List<String> all = new ArrayList<>(secrets);
        all.add(canaryToken);
        Set<String> found = leaked(String.join("\n", m.deadLetterTexts), all);
        for (String secret : found) {
            problems.add("a dead letter carries the secret " + secret);
        }
        int leaked = found.size();
        return new Report(
                sent.size(),
                stops.getAsInt(),
                decided,
                m.matched.size(),
                expected,
                leaked,
                problems);
    }

    /** Which of {@code secrets} show in {@code text} (dead letters, a log file). */
    public static Set<String> leaked(String text, List<String> secrets) {
        Set<String> found = new HashSet<>();
        for (String s : secrets) {
            if (text.contains(s)) {
                found.add(s);
            }
        }
        return found;
    }

    /** What the job put out so far, matched to the cases. */
    private final class Matcher {
        final Set<String> decided = new HashSet<>();
        final Map<Sent, DeadLetter> matched = new HashMap<>();
        final List<DeadLetter> unmatched = new ArrayList<>();
        final List<String> deadLetterTexts = new ArrayList<>();

        void poll() {
            for (ConsumerRecord<byte[], byte[]> r : decisions.poll()) {
                Decision d =
                        Json.read(new String(r.value(), StandardCharsets.UTF_8), Decision.class);
                decided.add(d.msgId);
            }
            for (ConsumerRecord<byte[], byte[]> r : deadLetters.poll()) {
                String text = new String(r.value(), StandardCharsets.UTF_8);
                deadLetterTexts.add(text);
                unmatched.add(Json.read(text, DeadLetter.class));
            }
        }

        boolean done(Sent s) {
            if (s.c.deadLetter() && !matched.containsKey(s)) {
                for (DeadLetter d : unmatched) {
                    if (s.c.topic().equals(d.source)
                            && (d.position == null || d.position.equals(s.position))) {
                        matched.put(s, d);
                        unmatched.remove(d);
                        break;
                    }
                }
            }
            return decided.contains(s.canary) && (!s.c.deadLetter() || matched.containsKey(s));
        }
    }

    /** A read_committed reader of a topic from its end at creation. */
    private static final class Tail implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;

        Tail(String bootstrap, Properties clientProperties, String topic) {
            Properties p = new Properties();
            p.putAll(clientProperties);
            p.putAll(KafkaIO.committedReader(bootstrap));
            p.put("max.partition.fetch.bytes", "2097152");
            consumer = new KafkaConsumer<>(p);
            List<TopicPartition> parts = CommittedRecords.partitions(consumer, topic);
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position);
        }

        Iterable<ConsumerRecord<byte[], byte[]>> poll() {
            return consumer.poll(Duration.ofMillis(200));
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    @Override
    public void close() {
        producer.close();
        decisions.close();
        deadLetters.close();
    }
}
