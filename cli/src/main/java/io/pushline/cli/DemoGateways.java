package io.pushline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.CommittedRecords;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's receipts besides the gateway's: the gateway job's answers from the vendor emulators
 * (sent, failed with the vendor's code, token_invalid) are read and counted, and for each send a
 * vendor took, what it would report later from the device is simulated (delivered, most; clicked,
 * some). The long connection (the app's own servers, no vendor) is simulated whole: sent, then
 * delivered, failed or token_invalid. Deterministic per (msgId, device), and counted, so the
 * receipts job's tables can be checked against the counts.
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

    /**
     * (type, msgId, device) already counted: the receipts job counts each step of a lifecycle once,
     * and a long-connection send that fell back to its vendor channel is the same (msgId, device)
     * sent twice, first by the app's servers, then by the gateway.
     */
    private final java.util.Set<String> counted = new java.util.HashSet<>();

    private int once(String type, SendRecord s) {
        return counted.add(type + '\0' + s.msgId + '\0' + s.deviceId) ? 1 : 0;
    }

    /** The gateway's own receipts, already on push.receipts (counted, not produced again). */
    long gatewayReceipts;

    void reportOn(String kafka) {
        List<long[]> order = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        // the long connection is the app's own servers: its sends are reported here whole
        CommittedRecords.readAll(
                kafka,
                Vendor.LONGCONN.topic(),
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
        // the vendors' answers came from the gateway's calls to the emulators; what a vendor
        // reports later from the device (delivered, clicked) is simulated for the sends it took
        CommittedRecords.readAll(
                kafka,
                Topics.RECEIPTS,
                r -> {
                    JsonNode n =
                            Json.read(
                                    new String(r.value(), StandardCharsets.UTF_8), JsonNode.class);
                    String type = n.path("type").asText();
                    String vendor = n.path("vendor").asText();
                    if (vendor.equals(Vendor.LONGCONN.wireName())
                            || !List.of("sent", "failed", "token_invalid").contains(type)) {
                        return;
                    }
                    gatewayReceipts++;
                    sends++;
                    SendRecord s = new SendRecord();
                    s.msgId = n.path("msgId").asText();
                    s.deviceId = n.path("deviceId").asText();
                    s.vendor = vendor;
                    switch (type) {
                        case "sent" -> {
                            sent += once("sent", s);
                            deviceSide(s, n.path("ts").asLong(), order, lines);
                        }
                        case "failed" -> failed += once("failed", s);
                        default -> tokenInvalid += once("token_invalid", s);
                    }
                });
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
        sent += once("sent", s);
        double u = rnd.nextDouble();
        if (u < 0.01) {
            add(order, lines, s, "token_invalid", at + 300 + rnd.nextInt(700), null);
            tokenInvalid += once("token_invalid", s);
            return;
        }
        if (u < 0.035) {
            String code = code(s.vendor, rnd);
            add(order, lines, s, "failed", at + 300 + rnd.nextInt(700), code);
            failed += once("failed", s);
            return;
        }
        if (u < 0.95) {
            delivered(s, at, rnd, order, lines);
        }
    }

    /** A vendor's delivery and click reports for a send it accepted at {@code at}. */
    private void deviceSide(SendRecord s, long at, List<long[]> order, List<String> lines) {
        SplittableRandom rnd = new SplittableRandom((s.msgId + "/" + s.deviceId).hashCode());
        if (rnd.nextDouble() < 0.95) {
            delivered(s, at, rnd, order, lines);
        }
    }

    private void delivered(
            SendRecord s, long at, SplittableRandom rnd, List<long[]> order, List<String> lines) {
        // most within seconds, a tail of devices that were offline for minutes
        long latency =
                rnd.nextDouble() < 0.9
                        ? 200 + (long) (rnd.nextDouble() * rnd.nextDouble() * 8_000)
                        : 30_000 + rnd.nextInt(600_000);
        long deliveredAt = at + latency;
        add(order, lines, s, "delivered", deliveredAt, null);
        delivered += once("delivered", s);
        if (rnd.nextDouble() < 0.08) {
            add(order, lines, s, "clicked", deliveredAt + 2_000 + rnd.nextInt(900_000), null);
            clicked += once("clicked", s);
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
