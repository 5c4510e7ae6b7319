package io.pushline.emulators;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * vivo Push as its server API documents it: {@code POST /message/auth} (appId, appKey, timestamp,
 * sign = md5(appId + appKey + timestamp + appSecret)) for an {@code authToken}; {@code POST
 * /message/send} for one regId, {@code POST /message/saveListPayload} then {@code POST
 * /message/pushToList} for up to 1,000; result 0, 10000 (bad authToken), 10302 (invalid regId),
 * 10252 (too fast, with Retry-After), HTTP 503; refused regIds of a list in {@code invalidUsers}.
 * The collapse id is {@code requestId}.
 */
public final class VivoEmulator extends HttpEmulator {
    private final Set<String> tasks = ConcurrentHashMap.newKeySet();

    public VivoEmulator(EmulatorCredentials c, Behaviour b, int port) throws IOException {
        super(Vendor.VIVO, c, b, port);
    }

    @Override
    protected Reply answer(Request r) {
        JsonNode b = r.json();
        if (r.path().equals("/message/auth")) {
            String ts = b.path("timestamp").asText("");
            String expected =
                    md5(credentials.appId() + credentials.appKey() + ts + credentials.secret());
            if (!credentials.appId().equals(b.path("appId").asText())
                    || !credentials.appKey().equals(b.path("appKey").asText())
                    || !expected.equals(b.path("sign").asText())) {
                counts.unauthorized.incrementAndGet();
                return Reply.json(200, Map.of("result", 10001, "desc", "sign error"));
            }
            return Reply.json(200, Map.of("result", 0, "desc", "请求成功", "authToken", issue()));
        }
        if (!authorized(r.header("authToken"))) {
            return Reply.json(200, Map.of("result", 10000, "desc", "authToken invalid"));
        }
        switch (r.path()) {
            case "/message/saveListPayload":
                String task = issue();
                tasks.add(task);
                return Reply.json(200, Map.of("result", 0, "desc", "请求成功", "taskId", task));
            case "/message/send":
                return push(
                        List.of(b.path("regId").asText()), b.path("requestId").asText(""), true);
            case "/message/pushToList":
                if (!tasks.contains(b.path("taskId").asText())) {
                    return Reply.json(200, Map.of("result", 10101, "desc", "unknown taskId"));
                }
                List<String> ids = new ArrayList<>();
                b.path("regIds").forEach(id -> ids.add(id.asText()));
                if (ids.size() < 2 || ids.size() > 1000) {
                    return Reply.json(200, Map.of("result", 10102, "desc", "2 to 1000 regIds"));
                }
                return push(ids, b.path("requestId").asText(""), false);
            default:
                return Reply.json(404, Map.of("result", 10404, "desc", "unknown path"));
        }
    }

    private Reply push(List<String> regIds, String requestId, boolean single) {
        counts.calls.incrementAndGet();
        if (fails()) {
            return Reply.json(503, Map.of("result", 10500, "desc", "service busy"));
        }
        if (!admit(regIds.size())) {
            return new Reply(
                    200,
                    io.pushline.schema.Json.write(Map.of("result", 10252, "desc", "too fast")),
                    retryAfter());
        }
        List<Map<String, Object>> invalid = new ArrayList<>();
        for (String id : regIds) {
            if (!deliver(requestId, id)) {
                invalid.add(Map.of("status", 1, "userid", id));
            }
        }
        if (single && !invalid.isEmpty()) {
            return Reply.json(200, Map.of("result", 10302, "desc", "regId invalid"));
        }
        return Reply.json(
                200,
                Map.of("result", 0, "desc", "请求成功", "taskId", issue(), "invalidUsers", invalid));
    }

    static String md5(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("MD5")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
