package io.pushline.bench;

import io.pushline.longconn.AckRules;
import io.pushline.schema.longconn.AppVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The policy half of {@code ./pushline bench longconn}: a generated population of devices with
 * network outages, the same sends to it under each retry policy, and what each policy achieves. A
 * discrete-event simulation, device by device (policies only couple a device's own messages).
 *
 * <p>A device's long connection alternates between up and an outage. Outages are, by share: short
 * network drops (55%: seconds; the server notices nothing, and the phone has no network), zombie
 * connections (20%: minutes; the server still believes the device online, as when the OS freezes
 * the app behind a half-open connection; the phone has network), the app offline (20%: the
 * connection is down, seen after a 30 s heartbeat, tens of minutes on average; the phone has
 * network, so the vendor channel reaches it) and the phone offline (5%: no network, 10 min to
 * hours; seen after the heartbeat). How often depends on the device: most are on good networks,
 * some on average ones, a few on poor ones; the rates are set so that about 97% of first sends
 * arrive, the long connection's success rate the issue reports. While up, 1% of deliveries are
 * still lost (the app fails to store them), and an ack is lost if the connection drops within its
 * 300 ms.
 *
 * <p>Each message the first send did not deliver has a compensation time: how long after its first
 * send a channel that delivers it had it. That is a retry that reached the app (its delivery), the
 * fallback (the vendor channel takes it over and holds it for a phone without network, as the
 * original system counted it) or, after a give-up, the app's next pull when it is opened with
 * network (on average 30 min later). A second figure, "reached", waits instead for the phone to
 * have it: through the vendor channel 2 s after the fallback, or 2 s after the phone has network
 * again. Phones without network for hours set its tail whatever the policy.
 */
final class LongconnPolicies {
    static final long SECOND = 1_000;
    static final long MINUTE = 60 * SECOND;
    static final long HOUR = 60 * MINUTE;
    static final long DAY = 24 * HOUR;
    static final long HEARTBEAT = 30 * SECOND;
    static final long ACK_LATENCY = 300;
    static final long VENDOR_LATENCY = 2 * SECOND;
    static final long APP_OPEN_MEAN = 30 * MINUTE;
    static final double LOSS_WHEN_UP = 0.01;
    static final String OLD_VERSION = "6.9.3";
    static final String NEW_VERSION = "7.4.0";

    private LongconnPolicies() {}

    /** A policy: the tracker's rules, and whether a device learns its delay (the contract's). */
    record Policy(String name, AckRules rules, boolean learn) {}

    static List<Policy> policies() {
        return List.of(
                new Policy(
                        "fixed",
                        new AckRules(10 * SECOND, 6, 10 * SECOND, 10 * SECOND, "7.0.0"),
                        false),
                new Policy("fixed+step", AckRules.defaults(), false),
                new Policy("adaptive", AckRules.defaults(), true));
    }

    /**
     * One device: its long connection's outage intervals {@code [start, end)}, whether the server
     * notices each, and whether the phone has network during it (the vendor channel works).
     */
    static final class Network {
        final long[] start;
        final long[] end;
        final boolean[] detected;
        final boolean[] phoneUp;
        final String version;

        Network(long[] start, long[] end, boolean[] detected, boolean[] phoneUp, String version) {
            this.start = start;
            this.end = end;
            this.detected = detected;
            this.phoneUp = phoneUp;
            this.version = version;
        }

        /** The first time at or after {@code t} the phone has network (for the vendor channel). */
        long phoneUpFrom(long t) {
            int i = outageAt(t);
            return i < 0 || phoneUp[i] ? t : end[i];
        }

        /** The outage at {@code t}, or -1 when the network is up. */
        int outageAt(long t) {
            int i = Arrays.binarySearch(start, t);
            i = i >= 0 ? i : -i - 2;
            return i >= 0 && t < end[i] ? i : -1;
        }

        /** Whether the server believes the device offline at {@code t}. */
        boolean offline(long t) {
            int i = outageAt(t);
            return i >= 0 && detected[i] && t >= start[i] + HEARTBEAT;
        }

        /** The first time at or after {@code t} the device has network. */
        long upFrom(long t) {
            int i = outageAt(t);
            return i < 0 ? t : end[i];
        }
    }

    /** The population's devices, generated from {@code seed}. */
    static Network network(long seed, int device, long horizon) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + device);
        double cls = r.nextDouble();
        long meanUp = cls < 0.70 ? 10 * HOUR : cls < 0.95 ? 3 * HOUR : 40 * MINUTE;
        String version = r.nextDouble() < 0.08 ? OLD_VERSION : NEW_VERSION;
        List<long[]> outages = new ArrayList<>();
        long t = exp(r, meanUp);
        while (t < horizon) {
            double kind = r.nextDouble();
            long length;
            boolean detected;
            boolean phoneUp;
            if (kind < 0.55) {
                length = SECOND + exp(r, 4 * SECOND);
                detected = false;
                phoneUp = false;
            } else if (kind < 0.75) {
                length = 20 * SECOND + exp(r, 2 * MINUTE);
                detected = false;
                phoneUp = true;
            } else if (kind < 0.95) {
                length = HEARTBEAT + exp(r, 15 * MINUTE);
                detected = true;
                phoneUp = true;
            } else {
                length = 10 * MINUTE + exp(r, 2 * HOUR);
                detected = true;
                phoneUp = false;
            }
            outages.add(new long[] {t, t + length, detected ? 1 : 0, phoneUp ? 1 : 0});
            t += length + exp(r, meanUp);
        }
        long[] s = new long[outages.size()];
        long[] e = new long[outages.size()];
        boolean[] d = new boolean[outages.size()];
        boolean[] p = new boolean[outages.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = outages.get(i)[0];
            e[i] = outages.get(i)[1];
            d[i] = outages.get(i)[2] == 1;
            p[i] = outages.get(i)[3] == 1;
        }
        return new Network(s, e, d, p, version);
    }

    static long exp(SplittableRandom r, long mean) {
        return (long) (-Math.log(1 - r.nextDouble()) * mean);
    }

    /** What one policy did to the population. */
    static final class Outcome {
        long sends;
        long untracked;
        long tracked;
        long acked;
        long firstSendArrived;
        long fallbacks;
        long giveUps;
        long resends;
        final LongList compensation = new LongList();
        final LongList reached = new LongList();
    }

    /**
     * Simulates {@code policy} for one device: its sends at {@code sendTimes} (sorted), the
     * deliveries and acks the network lets through, and the tracker's retries, fallbacks and
     * give-ups, in time order. The random draws (losses, app opens) come from {@code seed} per
     * attempt, so every policy meets the same luck at the same moment.
     */
    static void simulate(Policy policy, Network net, long[] sendTimes, long seed, Outcome out) {
        AckRules rules = policy.rules();
        boolean old = AppVersion.compare(net.version, rules.minAckVersion) < 0;
        // events: 0 ack arrives, 1 retry due; sends are taken in order between them
        PriorityQueue<long[]> queue =
                new PriorityQueue<>(
                        (a, b) ->
                                a[0] != b[0]
                                        ? Long.compare(a[0], b[0])
                                        : a[1] != b[1]
                                                ? Long.compare(a[1], b[1])
                                                : Long.compare(a[2], b[2]));
        int n = sendTimes.length;
        int[] retries = new int[n];
        long[] delay = new long[n];
        long[] last = new long[n];
        boolean[] tracked = new boolean[n];
        long[] deliveredAt = new long[n];
        Arrays.fill(deliveredAt, -1);
        Long learned = null;
        int next = 0;
        while (next < n || !queue.isEmpty()) {
            long[] head = queue.peek();
            long sendAt = next < n ? sendTimes[next] : Long.MAX_VALUE;
            // inputs of time t (sends, acks) come before the retries due at t
            if (head == null || head[0] > sendAt || (head[0] == sendAt && head[1] == 1)) {
                int m = next++;
                long t = sendTimes[m];
                out.sends++;
                if (attempt(net, t, seed, m, 0)) {
                    deliveredAt[m] = t;
                    out.firstSendArrived++;
                }
                if (old) {
                    out.untracked++;
                    continue;
                }
                out.tracked++;
                tracked[m] = true;
                last[m] = t;
                delay[m] = delayOf(rules, 1, learned, 0);
                queue.add(new long[] {sat(t, delay[m]), 1, m});
                if (deliveredAt[m] == t && acks(net, t)) {
                    queue.add(new long[] {t + ACK_LATENCY, 0, m});
                }
                continue;
            }
            queue.poll();
            int m = (int) head[2];
            long t = head[0];
            if (!tracked[m] || (head[1] == 1 && sat(last[m], delay[m]) != t)) {
                continue; // acked already, or a retry superseded
            }
            if (head[1] == 0) {
                tracked[m] = false;
                out.acked++;
                learned = null;
                compensated(out, sendTimes[m], deliveredAt[m], deliveredAt[m], deliveredAt[m]);
                continue;
            }
            int k = retries[m] + 1;
            if (delay[m] > rules.maxDelayMs) {
                tracked[m] = false;
                out.giveUps++;
                long pull = net.upFrom(t) + appOpen(seed, m);
                compensated(out, sendTimes[m], deliveredAt[m], pull, pull);
                continue;
            }
            if (net.offline(t)) {
                tracked[m] = false;
                out.fallbacks++;
                compensated(
                        out, sendTimes[m], deliveredAt[m], t, net.phoneUpFrom(t) + VENDOR_LATENCY);
                continue;
            }
            out.resends++;
            if (k > rules.probeTries && policy.learn()) {
                learned = delay[m];
            }
            retries[m] = k;
            last[m] = t;
            if (attempt(net, t, seed, m, k)) {
                if (deliveredAt[m] < 0) {
                    deliveredAt[m] = t;
                }
                if (acks(net, t)) {
                    queue.add(new long[] {t + ACK_LATENCY, 0, m});
                }
            }
            delay[m] = delayOf(rules, k + 1, learned, delay[m]);
            queue.add(new long[] {sat(t, delay[m]), 1, m});
        }
    }

    /**
     * A message the first send did not deliver is compensated when a channel that delivers it had
     * it ({@code handedOver}: a retry's delivery, the fallback, the app's pull) and reached when
     * the phone had it ({@code atPhone}).
     */
    private static void compensated(
            Outcome out, long sentAt, long deliveredAt, long handedOver, long atPhone) {
        if (deliveredAt == sentAt) {
            return;
        }
        out.compensation.add((deliveredAt >= 0 ? deliveredAt : handedOver) - sentAt);
        out.reached.add((deliveredAt >= 0 ? deliveredAt : atPhone) - sentAt);
    }

    private static long delayOf(AckRules rules, int k, Long learned, long previous) {
        if (k <= rules.probeTries) {
            return rules.probeDelayMs;
        }
        if (k == rules.probeTries + 1) {
            return learned != null ? learned : rules.probeDelayMs + rules.stepMs;
        }
        return previous + rules.stepMs;
    }

    private static long sat(long t, long d) {
        long s = t + d;
        return s < t ? Long.MAX_VALUE : s;
    }

    /** Whether attempt {@code k} of message {@code m} at {@code t} reaches the app. */
    private static boolean attempt(Network net, long t, long seed, int m, int k) {
        if (net.outageAt(t) >= 0) {
            return false;
        }
        return new SplittableRandom(seed ^ (m * 0x9E3779B97F4A7C15L) ^ (k * 0xBF58476D1CE4E5B9L))
                        .nextDouble()
                >= LOSS_WHEN_UP;
    }

    /** Whether an ack sent at {@code t} gets back: the network must hold for its latency. */
    private static boolean acks(Network net, long t) {
        return net.outageAt(t + ACK_LATENCY) < 0;
    }

    private static long appOpen(long seed, int m) {
        return exp(new SplittableRandom(seed * 31 + m), APP_OPEN_MEAN);
    }

    /** A growable list of longs, sorted on demand for percentiles. */
    static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int size() {
            return size;
        }

        long percentile(double p) {
            if (size == 0) {
                return 0;
            }
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            return sorted[(int) Math.min(size - 1, Math.ceil(p * size) - 1)];
        }
    }
}
