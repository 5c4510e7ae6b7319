package io.pushline.bench;

import io.pushline.common.KafkaIO;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads every vendor topic and {@code push.decisions} from the beginning as a gateway does ({@code
 * read_committed}) and counts sends and decisions per (message, device): the campaign's in arrays
 * indexed by device number, everything else by key.
 */
final class ChaosTally extends Thread implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final int devices;
    private final byte[] campaignSends;
    private final byte[] campaignDecisions;
    private final AtomicLong campaignSeen = new AtomicLong();
    private final Map<String, int[]> others = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
    private final List<String> drops = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile long maxWrittenVisible;
    private volatile boolean closed;

    ChaosTally(String kafka, int devices) {
        super("chaos-tally");
        setDaemon(true);
        this.devices = devices;
        this.campaignSends = new byte[devices];
        this.campaignDecisions = new byte[devices];
        Properties p = KafkaIO.committedReader(kafka);
        p.put("max.poll.records", "5000");
        consumer = new KafkaConsumer<>(p);
        List<TopicPartition> parts = new ArrayList<>();
        List<String> topics = new ArrayList<>();
        for (Vendor v : Vendor.values()) {
            topics.add(v.topic());
        }
        topics.add(Topics.DECISIONS);
        for (String t : topics) {
            consumer.partitionsFor(t).forEach(i -> parts.add(new TopicPartition(t, i.partition())));
        }
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    @Override
    public void run() {
        while (!closed) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                String v = new String(r.value(), StandardCharsets.UTF_8);
                String msgId = Pushes.field(v, "msgId");
                String device = Pushes.field(v, "deviceId");
                boolean decision = r.topic().equals(Topics.DECISIONS);
                if (decision) {
                    String outcome = Pushes.field(v, "decision");
                    outcomes.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
                    if (!"PASS".equals(outcome) && drops.size() < 20) {
                        // the model expects a PASS for every pair: keep the first few as seen
                        drops.add(v + " (visible at " + System.currentTimeMillis() + ")");
                    }
                } else if (r.timestamp() > maxWrittenVisible) {
                    maxWrittenVisible = r.timestamp();
                }
                int d = msgId.equals(ChaosBench.CAMPAIGN) ? deviceNumber(device) : -1;
                if (d >= 0) {
                    byte[] counts = decision ? campaignDecisions : campaignSends;
                    if (counts[d] < Byte.MAX_VALUE) {
                        counts[d]++;
                    }
                    if (!decision && counts[d] == 1) {
                        campaignSeen.incrementAndGet();
                    }
                } else {
                    others.computeIfAbsent(msgId + "\u0000" + device, k -> new int[2])[
                            decision ? 1 : 0]++;
                }
            }
        }
        consumer.close();
    }

    private int deviceNumber(String device) {
        if (device.length() < 2 || device.charAt(0) != 'd') {
            return -1;
        }
        try {
            int n = Integer.parseInt(device.substring(1));
            return n < devices ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    void awaitSeen(String msgId, Duration timeout) throws Exception {
        await(
                () -> others.keySet().stream().anyMatch(k -> k.startsWith(msgId + "\u0000")),
                timeout,
                msgId + " not visible");
    }

    void awaitCampaignShare(double share, Duration timeout) throws Exception {
        await(
                () -> campaignSeen.get() >= share * devices,
                timeout,
                "campaign below " + share * 100 + "% (" + campaignSeen.get() + ")");
    }

    /**
     * Waits for every campaign device, or until no new one for 3 minutes; {@code stalled} runs once
     * when none has come for a minute (to record the job's state while it stands still).
     */
    void awaitCampaign(Duration timeout, Runnable stalled) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = -1;
        long lastChange = System.nanoTime();
        boolean reported = false;
        while (campaignSeen.get() < devices && System.nanoTime() < deadline) {
            long now = campaignSeen.get();
            long still = System.nanoTime() - lastChange;
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (still > Duration.ofMinutes(3).toNanos()) {
                return;
            } else if (!reported && still > Duration.ofMinutes(1).toNanos()) {
                reported = true;
                stalled.run();
            }
            Thread.sleep(200);
        }
    }

    /**
     * The campaign devices without a send: how many per vendor (devices take the vendors in turn)
     * and the first runs of consecutive device numbers, which tell a lost chunk (a run), a lost
     * vendor queue (one vendor) and a lost tail (one run at the end) apart.
     */
    String missingCampaignDevices() {
        Vendor[] vendors = Vendor.values();
        long[] byVendor = new long[vendors.length];
        List<String> runs = new ArrayList<>();
        int runCount = 0;
        int start = -1;
        for (int d = 0; d <= devices; d++) {
            boolean missing = d < devices && campaignSends[d] == 0;
            if (missing) {
                byVendor[d % vendors.length]++;
                if (start < 0) {
                    start = d;
                }
            } else if (start >= 0) {
                runCount++;
                if (runs.size() < 12) {
                    runs.add(start == d - 1 ? "d" + start : "d" + start + "-d" + (d - 1));
                }
                start = -1;
            }
        }
        Map<String, Long> perVendor = new TreeMap<>();
        for (int i = 0; i < vendors.length; i++) {
            if (byVendor[i] > 0) {
                perVendor.put(vendors[i].wireName(), byVendor[i]);
            }
        }
        return String.format(
                "campaign devices without a send by vendor %s; %,d runs, first %s",
                perVendor, runCount, runs);
    }

    /** Waits until the expected realtime pairs have a send (at most the timeout). */
    void awaitAll(Set<String> expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (expected.stream().allMatch(k -> others.getOrDefault(k, new int[2])[0] > 0)) {
                return;
            }
            Thread.sleep(500);
        }
    }

    /** Waits until a send written (record time) after {@code t} is visible; returns when. */
    long awaitWrittenAfter(long t, Duration timeout, Runnable stalled) throws Exception {
        long reportAt = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        boolean[] reported = {false};
        await(
                () -> {
                    if (!reported[0] && System.nanoTime() > reportAt) {
                        reported[0] = true;
                        stalled.run();
                    }
                    return maxWrittenVisible > t;
                },
                timeout,
                "no send written after the fault visible");
        return System.currentTimeMillis();
    }

    private static void await(Check check, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(what + " after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }

    private interface Check {
        boolean ok();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        join();
    }

    /** The first decisions that were not a PASS, as read. */
    List<String> drops() {
        return List.copyOf(drops);
    }

    /**
     * Sends and decisions against the model: the campaign to every device, the marker, realtime.
     */
    Counts counts(Set<String> realtime) {
        long dupSends = 0;
        long dupDecisions = 0;
        long missing = 0;
        long decisionsMissing = 0;
        for (int d = 0; d < devices; d++) {
            dupSends += campaignSends[d] > 1 ? 1 : 0;
            dupDecisions += campaignDecisions[d] > 1 ? 1 : 0;
            missing += campaignSends[d] == 0 ? 1 : 0;
            decisionsMissing += campaignDecisions[d] == 0 ? 1 : 0;
        }
        List<String> expected = new ArrayList<>(realtime);
        expected.add("chaos-marker\u0000marker-d");
        for (String k : expected) {
            int[] c = others.getOrDefault(k, new int[2]);
            missing += c[0] == 0 ? 1 : 0;
            decisionsMissing += c[1] == 0 ? 1 : 0;
        }
        long unexpected = 0;
        Set<String> model = new java.util.HashSet<>(expected);
        for (Map.Entry<String, int[]> e : others.entrySet()) {
            dupSends += e.getValue()[0] > 1 ? 1 : 0;
            dupDecisions += e.getValue()[1] > 1 ? 1 : 0;
            if (!model.contains(e.getKey()) && e.getValue()[0] > 0) {
                unexpected++;
            }
        }
        Map<String, Long> byOutcome = new TreeMap<>();
        outcomes.forEach((k, v) -> byOutcome.put(k, v.get()));
        return new Counts(
                devices + expected.size(),
                campaignSeen.get(),
                dupSends,
                dupDecisions,
                missing,
                decisionsMissing,
                unexpected,
                byOutcome);
    }

    record Counts(
            long expected,
            long campaignDevices,
            long duplicateSends,
            long duplicateDecisions,
            long missing,
            long decisionsMissing,
            long unexpected,
            Map<String, Long> outcomes) {
        long duplicates() {
            return duplicateSends + duplicateDecisions;
        }

        String details() {
            return String.format(
                    "Model: %,d (message, device) pairs, one send and one decision each. Seen"
                            + " (read_committed): campaign sends to %,d devices; pairs with more"
                            + " than one send %d, more than one decision %d; sends missing %d,"
                            + " decisions missing %d, sends outside the model %d; decisions by"
                            + " outcome %s",
                    expected,
                    campaignDevices,
                    duplicateSends,
                    duplicateDecisions,
                    missing,
                    decisionsMissing,
                    unexpected,
                    outcomes);
        }
    }
}
