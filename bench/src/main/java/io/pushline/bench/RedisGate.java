package io.pushline.bench;

import io.pushline.dispatch.gate.GateEngine;
import io.pushline.dispatch.gate.Rules;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.registry.DeviceInfo;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.SetParams;

/**
 * The seeds' design as a peer for {@code bench gate}: the gate's rules kept in Redis, one key per
 * device field (last pass, local-day counter, one window per device_msgType, one key per remembered
 * msgId and copy with an expiry), pipelined. Checks run in event time against the stored times, so
 * it decides exactly as the contract (expiry only collects garbage). A batch of pushes costs two
 * round trips: one pipelined MGET per push, then the writes.
 */
final class RedisGate implements AutoCloseable {
    private static final int BATCH = 1000;
    private static final long DAY_MS = 86_400_000L;

    private final Process server;
    private final Jedis redis;

    private RedisGate(Process server, Jedis redis) {
        this.server = server;
        this.redis = redis;
    }

    /** Starts a private redis-server on a free loopback port; null when none is installed. */
    static RedisGate start() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process server;
        try {
            server =
                    new ProcessBuilder(
                                    "redis-server",
                                    "--port",
                                    String.valueOf(port),
                                    "--bind",
                                    "127.0.0.1",
                                    "--save",
                                    "",
                                    "--appendonly",
                                    "no")
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .start();
        } catch (IOException notInstalled) {
            return null;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                Jedis j = new Jedis("127.0.0.1", port);
                j.ping();
                return new RedisGate(server, j);
            } catch (RuntimeException notYet) {
                if (System.nanoTime() > deadline || !server.isAlive()) {
                    server.destroy();
                    throw new IllegalStateException("redis-server did not start", notYet);
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Decides the pushes in order; returns the count of each outcome ("PASS" or the reason). */
    Map<String, Long> run(Rules rules, List<DevicePush> pushes) {
        Map<String, Long> outcomes = new TreeMap<>();
        for (int from = 0; from < pushes.size(); from += BATCH) {
            batch(rules, pushes.subList(from, Math.min(pushes.size(), from + BATCH)), outcomes);
        }
        return outcomes;
    }

    private void batch(Rules rules, List<DevicePush> pushes, Map<String, Long> outcomes) {
        Pipeline read = redis.pipelined();
        List<Response<List<String>>> values = new ArrayList<>(pushes.size());
        for (DevicePush d : pushes) {
            values.add(read.mget(keys(d)));
        }
        read.sync();
        // Writes of this batch, visible to its later pushes of the same device.
        Map<String, String> written = new HashMap<>();
        Map<String, Long> expiry = new HashMap<>();
        for (int i = 0; i < pushes.size(); i++) {
            DevicePush d = pushes.get(i);
            String[] k = keys(d);
            String[] v = values.get(i).get().toArray(new String[0]);
            for (int f = 0; f < k.length; f++) {
                if (written.containsKey(k[f])) {
                    v[f] = written.get(k[f]);
                }
            }
            String outcome = decide(rules, d, k, v, written, expiry);
            outcomes.merge(outcome, 1L, Long::sum);
        }
        Pipeline write = redis.pipelined();
        for (Map.Entry<String, String> e : written.entrySet()) {
            Long px = expiry.get(e.getKey());
            write.set(
                    e.getKey(),
                    e.getValue(),
                    SetParams.setParams().px(px == null ? 2 * DAY_MS : px));
        }
        write.sync();
    }

    /** Keys: last counted pass, day counter, msgType window, msgId seen, copy seen. */
    private static String[] keys(DevicePush d) {
        String dev = d.device.deviceId;
        PushRequest p = d.request;
        return new String[] {
            "lp:" + dev,
            "dc:" + dev,
            "w:" + dev + ":" + p.msgType,
            "m:" + dev + ":" + Long.toHexString(GateEngine.hash(p.msgId)),
            "c:" + dev + ":" + Long.toHexString(GateEngine.copyHash(p.title, p.body))
        };
    }

    private static String decide(
            Rules rules,
            DevicePush d,
            String[] k,
            String[] v,
            Map<String, String> written,
            Map<String, Long> expiry) {
        PushRequest p = d.request;
        DeviceInfo dev = d.device;
        long t = p.ts;
        int level = rules.level(p.level, p.msgType);
        if (!dev.pushEnabled) {
            return "push_disabled";
        }
        if (rules.dedupeWindow != null
                && ((v[3] != null && t - Long.parseLong(v[3]) < rules.dedupeWindow)
                        || (v[4] != null && t - Long.parseLong(v[4]) < rules.dedupeWindow))) {
            return "duplicate";
        }
        boolean whitelisted =
                rules.whitelistMsgTypes.contains(p.msgType)
                        || rules.whitelistDevices.contains(dev.deviceId);
        long local =
                t
                        + GateEngine.zone(rules, dev)
                                        .getRules()
                                        .getOffset(Instant.ofEpochMilli(t))
                                        .getTotalSeconds()
                                * 1000L;
        long today = Math.floorDiv(local, DAY_MS);
        Rules.Cap cap = rules.cap(p.msgType);
        if (!whitelisted) {
            Rules.QuietHours q = rules.quietHours;
            if (q != null
                    && (q.exemptLevel() == null || level < q.exemptLevel())
                    && q.contains(
                            LocalTime.ofNanoOfDay(Math.floorMod(local, DAY_MS) * 1_000_000L))) {
                return "quiet_hours";
            }
            Rules.MinInterval mi = rules.minInterval;
            if (mi != null
                    && (mi.exemptLevel() == null || level < mi.exemptLevel())
                    && v[0] != null
                    && t - Long.parseLong(v[0]) < mi.period()) {
                return "min_interval";
            }
            if (cap != null && v[2] != null) {
                String[] w = v[2].split(":");
                if (t < Long.parseLong(w[0]) + cap.period()
                        && Integer.parseInt(w[1]) >= cap.limit()) {
                    return "type_cap";
                }
            }
            Rules.DailyCap dc = rules.dailyCap;
            if (dc != null
                    && (dc.exemptLevel() == null || level < dc.exemptLevel())
                    && v[1] != null) {
                String[] c = v[1].split(":");
                if (Long.parseLong(c[0]) == today && Integer.parseInt(c[1]) >= dc.limit()) {
                    return "daily_cap";
                }
            }
        }
        if (rules.dedupeWindow != null) {
            put(written, expiry, k[3], String.valueOf(t), rules.dedupeWindow);
            put(written, expiry, k[4], String.valueOf(t), rules.dedupeWindow);
        }
        if (!whitelisted) {
            put(written, expiry, k[0], String.valueOf(t), 2 * DAY_MS);
            if (cap != null) {
                String window = v[2];
                if (window != null) {
                    String[] w = window.split(":");
                    long start = Long.parseLong(w[0]);
                    window =
                            t < start + cap.period()
                                    ? start + ":" + (Integer.parseInt(w[1]) + 1)
                                    : t + ":1";
                } else {
                    window = t + ":1";
                }
                put(written, expiry, k[2], window, cap.period());
            }
            String day = v[1];
            int count = 1;
            if (day != null) {
                String[] c = day.split(":");
                if (Long.parseLong(c[0]) == today) {
                    count = Integer.parseInt(c[1]) + 1;
                }
            }
            put(written, expiry, k[1], today + ":" + count, 2 * DAY_MS);
        }
        return "PASS";
    }

    private static void put(
            Map<String, String> written,
            Map<String, Long> expiry,
            String key,
            String value,
            long px) {
        written.put(key, value);
        expiry.put(key, px);
    }

    @Override
    public void close() {
        redis.close();
        server.destroy();
    }
}
