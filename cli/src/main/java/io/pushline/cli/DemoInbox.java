package io.pushline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.inbox.InboxStore;
import io.pushline.local.LocalStack;
import io.pushline.schema.Json;
import io.pushline.serve.HBaseReminderStore;
import io.pushline.serve.Server;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The demo's inboxes: after the dispatch job, {@code pushline serve}'s API in this JVM, read over
 * HTTP for a few users (pages of 3, following {@code next}) and compared with the model of {@link
 * DemoData}; one read and one read-all; and the broadcast's cost in HBase rows.
 */
final class DemoInbox {
    /** The key of the demo's own server (every scope). */
    static final String KEY = "demo-app-key";

    private DemoInbox() {}

    static boolean check(LocalStack stack, DemoData data) throws Exception {
        String namespace = stack.jobOptions().get(CommonOptions.HBASE_NAMESPACE.key());
        if (namespace == null) {
            namespace = CommonOptions.HBASE_NAMESPACE.defaultValue();
        }
        try (Connection hbase =
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(stack.hbaseZkQuorum()));
                InboxStore counter =
                        new InboxStore(
                                hbase, namespace, Duration.ofDays(90), System::currentTimeMillis);
                Server server =
                        Server.builder()
                                .reminders(new HBaseReminderStore(hbase, namespace))
                                .inbox(
                                        new InboxStore(
                                                hbase,
                                                namespace,
                                                Duration.ofDays(90),
                                                System::currentTimeMillis),
                                        null)
                                .appKey(KEY)
                                .build()) {
            int port = server.start("127.0.0.1", 0);
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + port;

            List<String> users = pick(data);
            boolean ok = true;
            int pages = 0;
            for (String uid : users) {
                List<String> expected =
                        new ArrayList<>(data.inbox.get(uid).descendingMap().values());
                List<String> seen = new ArrayList<>();
                String next = null;
                long unread = -1;
                do {
                    String url = base + "/v1/inbox/" + enc(uid) + "?limit=3";
                    if (next != null) {
                        url += "&before=" + enc(next);
                    }
                    JsonNode page = get(http, url);
                    pages++;
                    if (unread < 0) {
                        unread = page.get("unread").asLong();
                    }
                    page.get("messages").forEach(m -> seen.add(m.get("msgId").asText()));
                    next = page.get("next").isNull() ? null : page.get("next").asText();
                } while (next != null);
                boolean same = seen.equals(expected) && unread == expected.size();
                ok &= same;
                System.out.printf(
                        "      %-18s %2d messages, %2d unread, newest first: %s%s%n",
                        uid,
                        seen.size(),
                        unread,
                        String.join(" ", seen.subList(0, Math.min(4, seen.size())))
                                + (seen.size() > 4 ? " ..." : ""),
                        same ? "" : "  (expected " + expected + ")");
            }
            String reader = users.get(0);
            String first = data.inbox.get(reader).lastEntry().getValue();
            JsonNode read =
                    post(
                            http,
                            base + "/v1/inbox/" + enc(reader) + "/read",
                            "{\"msgIds\":[\"" + first + "\",\"never-sent\"]}");
            long left = data.inbox.get(reader).size() - 1;
            boolean readOk =
                    read.get("unread").asLong() == left
                            && read.get("ignored").size() == 1
                            && read.get("ignored").get(0).asText().equals("never-sent");
            JsonNode all =
                    post(http, base + "/v1/inbox/" + enc(users.get(1)) + "/read", "{\"all\":true}");
            readOk &=
                    all.get("unread").asLong() == 0
                            && get(http, base + "/v1/inbox/" + enc(users.get(1)))
                                            .get("unread")
                                            .asLong()
                                    == 0;
            ok &= readOk;
            long broadcastRows = counter.rows("b:");
            long userRows = counter.rows("u:");
            long direct = data.inbox.size();
            System.out.printf(
                    "      %,d requests with inbox:true; %,d inboxes, %,d of them with a row of"
                            + " their own; %d campaigns to %,d uids each: %d broadcast rows, not a"
                            + " row per member%n",
                    data.inboxRequests,
                    direct,
                    userRows,
                    data.inboxBroadcasts,
                    data.broadcastMembers,
                    broadcastRows);
            System.out.printf(
                    "      read %d inboxes over HTTP in %d pages of 3; read one message of %s"
                            + " (and one never sent: ignored), read all of %s%n",
                    users.size(), pages, reader, users.get(1));
            ok &= broadcastRows == data.inboxBroadcasts && userRows < direct;
            System.out.println(
                    ok
                            ? "Check: inboxes over HTTP are the model's, newest first, every message"
                                    + " once across pages; reads counted; the broadcast stored once: OK"
                            : "Check FAILED: inboxes differ from the model (see above)");
            return ok;
        }
    }

    /** Users with the most messages, one only the campaign reached, one never bound. */
    private static List<String> pick(DemoData data) {
        List<String> out = new ArrayList<>();
        data.inbox.entrySet().stream()
                .sorted(
                        Comparator.comparing(
                                (Map.Entry<String, TreeMap<Long, String>> e) ->
                                        -e.getValue().size()))
                .limit(3)
                .forEach(e -> out.add(e.getKey()));
        data.inbox.entrySet().stream()
                .filter(e -> e.getValue().size() == 1 && !out.contains(e.getKey()))
                .findFirst()
                .ifPresent(e -> out.add(e.getKey()));
        data.inbox.keySet().stream()
                .filter(u -> u.startsWith("u-missing-") && !out.contains(u))
                .findFirst()
                .ifPresent(out::add);
        return out;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static JsonNode get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", "Bearer " + KEY)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + url + ": " + r.statusCode() + " " + r.body());
        }
        return Json.MAPPER.readTree(r.body());
    }

    private static JsonNode post(HttpClient http, String url, String body) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("content-type", "application/json")
                                .header("Authorization", "Bearer " + KEY)
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("POST " + url + ": " + r.statusCode() + " " + r.body());
        }
        return Json.MAPPER.readTree(r.body());
    }
}
