package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.longconn.LongconnJob;
import io.pushline.longconn.LongconnOptions;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.longconn.LongconnReceipt;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The demo's long-connection gateway and the long-connection job. The gateway answers the dispatch
 * job's longconn sends as devices of five kinds would: most ack at once; lossy ones lose the first
 * send and ack the first retry; some go offline right after their first push and come back 20 s
 * later; dead ones never ack; old app versions never ack either and are not tracked. Like the rest
 * of the demo it plays the day in event time: the gateway's acks and presence are stamped when the
 * devices would send them (an ack of the first retry at the retry's due time, known from the
 * rules), so the job decides exactly as it would live. Then the job's receipts, retries, fallbacks
 * and undeliverable decisions are counted against this model.
 */
final class DemoLongconn {
    /** Short delays, so that a demo day's trackings end within seconds of event time. */
    static final String RULES =
            "probeDelay: 3s\nprobeTries: 2\nstep: 3s\nmaxDelay: 9s\nminAckVersion: \"7.0.0\"\n";

    static final long PROBE = 3_000;
    static final long ACK = 300;
    static final long DETECTED = 500;
    static final long AWAY = 20_000;

    enum Kind {
        OK,
        LOSSY,
        OFFLINE,
        DEAD,
        OLD
    }

    private DemoLongconn() {}

    static Kind kind(String deviceId) {
        int h = Math.floorMod(deviceId.hashCode() * 31 + 7, 100);
        return h < 70
                ? Kind.OK
                : h < 82 ? Kind.LOSSY : h < 90 ? Kind.OFFLINE : h < 95 ? Kind.DEAD : Kind.OLD;
    }

    /** The model: what each first send should come to. */
    static final class Expected {
        long sends;
        long acked;
        long ackedAfterRetry;
        long fallbacks;
        long fallbacksToVendor;
        long undeliverable;
        long givenUp;
        long untracked;
    }

    static int run(LocalStack stack, Path dir, long base) throws Exception {
        String kafka = stack.kafkaBootstrap();
        DemoCommand.step(
                "[7/9] the long-connection gateway answers the longconn sends (acks, drops,"
                        + " devices offline and back, old app versions); the long-connection job"
                        + " (bounded) retries, falls back and gives up");
        long ts = System.nanoTime();
        List<SendRecord> sends = new ArrayList<>();
        Map<String, Long> sentAt = new HashMap<>();
        CommittedRecords.readAll(
                kafka,
                Vendor.LONGCONN.topic(),
                r -> {
                    SendRecord s =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8),
                                    SendRecord.class);
                    if (s.attempt == null) {
                        sends.add(s);
                        sentAt.put(s.msgId + "/" + s.deviceId, r.timestamp());
                    }
                });
        sends.sort(Comparator.comparingLong(s -> sentAt.get(s.msgId + "/" + s.deviceId)));
        List<String[]> presence = new ArrayList<>();
        List<String[]> acks = new ArrayList<>();
        Expected want = new Expected();
        Map<String, Long> firstSend = new HashMap<>();
        Set<String> seen = new HashSet<>();
        for (SendRecord s : sends) {
            long t = sentAt.get(s.msgId + "/" + s.deviceId);
            Kind kind = kind(s.deviceId);
            if (seen.add(s.deviceId)) {
                String version = kind == Kind.OLD ? "6.9.0" : "7.3.0";
                presence.add(presence(s.deviceId, base, true, version));
            }
            want.sends++;
            switch (kind) {
                case OLD -> want.untracked++;
                case DEAD -> want.givenUp++;
                case OK -> {
                    acks.add(ack(s, t + ACK));
                    want.acked++;
                }
                case LOSSY -> {
                    acks.add(ack(s, t + PROBE + ACK));
                    want.acked++;
                    want.ackedAfterRetry++;
                }
                case OFFLINE -> {
                    Long first = firstSend.get(s.deviceId);
                    if (first == null) {
                        first = t;
                        firstSend.put(s.deviceId, t);
                        presence.add(presence(s.deviceId, t + DETECTED, false, null));
                        presence.add(presence(s.deviceId, t + AWAY, true, null));
                    }
                    boolean away = t >= first && t < first + AWAY;
                    boolean awayAtRetry = t + PROBE >= first + DETECTED && t + PROBE < first + AWAY;
                    if (!away) {
                        acks.add(ack(s, t + ACK));
                        want.acked++;
                    } else if (!awayAtRetry) {
                        acks.add(ack(s, t + PROBE + ACK));
                        want.acked++;
                        want.ackedAfterRetry++;
                    } else {
                        want.fallbacks++;
                        if (s.fallback != null) {
                            want.fallbacksToVendor++;
                        } else {
                            want.undeliverable++;
                        }
                    }
                }
                default -> throw new IllegalStateException(kind.name());
            }
        }
        // a gateway reports as things happen: in time order (a report later than the watermark
        // would come after retries it should have preceded)
        presence.sort(Comparator.comparingLong(DemoLongconn::tsOf));
        acks.sort(Comparator.comparingLong(DemoLongconn::tsOf));
        DemoTopics.produce(kafka, Topics.LONGCONN_PRESENCE, presence);
        DemoTopics.produce(kafka, Topics.LONGCONN_ACKS, acks);
        System.out.printf(
                "      %,d longconn sends to %,d devices; the gateway: %,d presence reports, %,d"
                        + " acks (%.1f s)%n",
                sends.size(), seen.size(), presence.size(), acks.size(), DemoCommand.secs(ts));

        Path rules = dir.resolve("longconn-rules.yaml");
        Files.writeString(rules, RULES, StandardCharsets.UTF_8);
        System.out.println(
                "      rules: "
                        + rules
                        + " (probe retries every 3 s, then 6 s, 9 s; a 12 s delay gives up)");
        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(LongconnOptions.RULES.key(), rules.toString());
        // the gateway's reports were written in one go: event time, not arrival, orders them
        opts.put(LongconnOptions.IDLE_ADVANCE.key(), "1 h");
        Configuration flink = stack.flinkConfiguration();
        flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        env.setParallelism(2);
        ts = System.nanoTime();
        JobClient job = LongconnJob.start(env, Configuration.fromMap(opts));
        job.getJobExecutionResult().get(5, TimeUnit.MINUTES);
        System.out.printf("      job finished in %.1f s%n", DemoCommand.secs(ts));
        return check(kafka, want);
    }

    private static int check(String kafka, Expected want) throws Exception {
        Map<String, Long> byType = new TreeMap<>();
        Set<String> retried = new HashSet<>();
        long resends = 0;
        long ackedAfterRetry = 0;
        for (String line : DemoTopics.readAllAfterJobs(kafka, Topics.RECEIPTS)) {
            if (!line.contains("\"longconn_")) {
                continue;
            }
            LongconnReceipt r = Json.read(line, LongconnReceipt.class);
            byType.merge(r.type, 1L, Long::sum);
            if (r.type.equals(LongconnReceipt.RETRY)) {
                retried.add(r.msgId + "/" + r.deviceId);
            }
            if (r.type.equals(LongconnReceipt.ACKED) && r.attempt > 0) {
                ackedAfterRetry++;
            }
        }
        long fellBackToVendor = 0;
        for (Vendor v : Vendor.values()) {
            if (v == Vendor.LONGCONN) {
                continue;
            }
            for (String line : DemoTopics.readAllAfterJobs(kafka, v.topic())) {
                if (line.contains("\"attempt\"")) {
                    fellBackToVendor++;
                }
            }
        }
        for (String line : DemoTopics.readAllAfterJobs(kafka, Vendor.LONGCONN.topic())) {
            if (line.contains("\"attempt\"")) {
                resends++;
            }
        }
        long undeliverable = 0;
        for (String line : DemoTopics.readAllAfterJobs(kafka, Topics.DECISIONS)) {
            if (line.contains("\"undeliverable\"")
                    && Json.read(line, Decision.class).reason.equals("undeliverable")) {
                undeliverable++;
            }
        }
        long acked = byType.getOrDefault(LongconnReceipt.ACKED, 0L);
        long fallbacks = byType.getOrDefault(LongconnReceipt.FALLBACK, 0L);
        long givenUp = byType.getOrDefault(LongconnReceipt.GIVE_UP, 0L);
        System.out.printf("      %-28s %10s %10s%n", "", "job", "model");
        boolean ok = true;
        ok &= row("acked", acked, want.acked);
        ok &= row("  of them after a retry", ackedAfterRetry, want.ackedAfterRetry);
        ok &= row("fallen back", fallbacks, want.fallbacks);
        ok &= row("  sent on the vendor channel", fellBackToVendor, want.fallbacksToVendor);
        ok &= row("  undeliverable (no channel)", undeliverable, want.undeliverable);
        ok &= row("given up", givenUp, want.givenUp);
        ok &=
                row(
                        "untracked (old app versions)",
                        want.sends - acked - fallbacks - givenUp,
                        want.untracked);
        System.out.printf(
                "      retried: %,d messages, %,d resends on the long connection%n",
                retried.size(), resends);
        System.out.println(
                "      "
                        + (ok ? "OK" : "MISMATCH")
                        + ": the long connection's outcomes match the gateway's model");
        return ok ? 0 : 1;
    }

    private static boolean row(String what, long got, long want) {
        System.out.printf(
                "      %-28s %,10d %,10d%s%n", what, got, want, got == want ? "" : "  <- differs");
        return got == want;
    }

    /** The {@code ts} of a report this class wrote (its first field). */
    private static long tsOf(String[] kv) {
        String v = kv[1];
        int from = v.indexOf(':') + 1;
        return Long.parseLong(v.substring(from, v.indexOf(',', from)));
    }

    private static String[] presence(String deviceId, long ts, boolean online, String version) {
        return new String[] {
            deviceId,
            "{\"ts\":"
                    + ts
                    + ",\"type\":\"presence\",\"deviceId\":\""
                    + deviceId
                    + "\",\"online\":"
                    + online
                    + (version == null ? "" : ",\"appVersion\":\"" + version + "\"")
                    + "}"
        };
    }

    private static String[] ack(SendRecord s, long ts) {
        return new String[] {
            s.deviceId,
            "{\"ts\":" + ts + ",\"msgId\":\"" + s.msgId + "\",\"deviceId\":\"" + s.deviceId + "\"}"
        };
    }
}
