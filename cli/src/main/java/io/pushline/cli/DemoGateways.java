package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's vendor gateways: read every send of the vendor topics and report on it as real
 * gateways would on push.receipts: sent within seconds, then delivered (most), failed with the
 * vendor's code, or token_invalid; some deliveries are clicked. Deterministic per (msgId, device),
 * and counted, so the receipts job's tables can be checked against the counts.
 */
final class DemoGateways {
    static final String[][] FAIL_CODES = {
        {"apns", "TooManyRequests", "InternalServerError"},
        {"fcm", "QUOTA_EXCEEDED", "UNAVAILABLE"},
        {"huawei", "80300008", "80300010"},
        {"honor", "80300008", "80300010"},
        {"xiaomi", "20001", "22001"},
        {"oppo", "11", "33"},
        {"vivo", "10070", "10071"},
        {"longconn", "TIMEOUT", "CLOSED"}
    };

    long sends;
    long sent;
    long delivered;
    long clicked;
    long failed;
    long tokenInvalid;

    /** (key, JSON) records for push.receipts, in event-time order. */
    final List<String[]> receipts = new ArrayList<>();

    void reportOn(String kafka) {
        List<long[]> order = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (Vendor v : Vendor.values()) {
            CommittedRecords.readAll(
                    kafka,
                    v.topic(),
                    r -> {
                        SendRecord s =
                                Json.read(
                                        new String(r.value(), StandardCharsets.UTF_8),
                                        SendRecord.class);
                        if (s.attempt != null) {
                            return; // the long-connection job's retries and fallbacks
                        }
                        sends++;
                        report(s, order, lines);
                    });
        }
        order.sort(Comparator.comparingLong(a -> a[0]));
        for (long[] o : order) {
            String line = lines.get((int) o[1]);
            receipts.add(
                    new String[] {
                        line.substring(0, line.indexOf('\t')),
                        line.substring(line.indexOf('\t') + 1)
                    });
        }
    }

    private void report(SendRecord s, List<long[]> order, List<String> lines) {
        SplittableRandom rnd = new SplittableRandom((s.msgId + "/" + s.deviceId).hashCode());
        long at = s.ts + 500 + rnd.nextInt(2_500);
        add(order, lines, s, "sent", at, null);
        sent++;
        double u = rnd.nextDouble();
        if (u < 0.01) {
            add(order, lines, s, "token_invalid", at + 300 + rnd.nextInt(700), null);
            tokenInvalid++;
            return;
        }
        if (u < 0.035) {
            String code = code(s.vendor, rnd);
            add(order, lines, s, "failed", at + 300 + rnd.nextInt(700), code);
            failed++;
            return;
        }
        if (u < 0.95) {
            // most within seconds, a tail of devices that were offline for minutes
            long latency =
                    rnd.nextDouble() < 0.9
                            ? 200 + (long) (rnd.nextDouble() * rnd.nextDouble() * 8_000)
                            : 30_000 + rnd.nextInt(600_000);
            long deliveredAt = at + latency;
            add(order, lines, s, "delivered", deliveredAt, null);
            delivered++;
            if (rnd.nextDouble() < 0.08) {
                add(order, lines, s, "clicked", deliveredAt + 2_000 + rnd.nextInt(900_000), null);
                clicked++;
            }
        }
    }

    private static String code(String vendor, SplittableRandom rnd) {
        for (String[] c : FAIL_CODES) {
            if (c[0].equals(vendor)) {
                return c[1 + rnd.nextInt(2)];
            }
        }
        return "UNKNOWN";
    }

    private static void add(
            List<long[]> order,
            List<String> lines,
            SendRecord s,
            String type,
            long ts,
            String code) {
        order.add(new long[] {ts, lines.size()});
        lines.add(
                s.deviceId
                        + "\t{\"type\":\""
                        + type
                        + "\",\"msgId\":"
                        + Json.write(s.msgId)
                        + ",\"deviceId\":"
                        + Json.write(s.deviceId)
                        + ",\"vendor\":\""
                        + s.vendor
                        + "\",\"ts\":"
                        + ts
                        + (code == null ? "" : ",\"code\":\"" + code + "\"")
                        + ("token_invalid".equals(type) ? ",\"token\":" + Json.write(s.token) : "")
                        + "}");
    }
}
