package io.pushline.emulators;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OPPO Push as its server API v1 documents it: {@code POST /server/v1/auth} (app_key, timestamp,
 * sign = sha256(app_key + timestamp + master_secret)) for a 24-hour {@code auth_token}, and {@code
 * POST /server/v1/message/notification/unicast_batch} with up to 1,000 messages, each answered with
 * an {@code errorCode} (10000: invalid regid); call codes 11 (bad auth_token), -2 (flow control),
 * -1 (busy). The collapse id is {@code app_message_id}.
 */
public final class OppoEmulator extends HttpEmulator {
    public OppoEmulator(EmulatorCredentials c, Behaviour b, int port) throws IOException {
        super(Vendor.OPPO, c, b, port);
    }

    @Override
    protected Reply answer(Request r) {
        if (r.path().equals("/server/v1/auth")) {
            Map<String, String> f = r.form();
            String expected =
                    sha256(
                            credentials.appKey()
                                    + f.getOrDefault("timestamp", "")
                                    + credentials.secret());
            if (!credentials.appKey().equals(f.get("app_key")) || !expected.equals(f.get("sign"))) {
                counts.unauthorized.incrementAndGet();
                return Reply.json(200, Map.of("code", 14, "message", "invalid sign"));
            }
            return Reply.json(
                    200,
                    Map.of(
                            "code",
                            0,
                            "message",
                            "Success",
                            "data",
                            Map.of(
                                    "auth_token",
                                    issue(),
                                    "create_time",
                                    System.currentTimeMillis())));
        }
        if (!r.path().equals("/server/v1/message/notification/unicast_batch")) {
            return Reply.json(404, Map.of("code", 10001, "message", "unknown path"));
        }
        if (!authorized(r.header("auth_token"))) {
            return Reply.json(200, Map.of("code", 11, "message", "Invalid AuthToken"));
        }
        counts.calls.incrementAndGet();
        if (fails()) {
            return Reply.json(200, Map.of("code", -1, "message", "Service Currently Unavailable"));
        }
        JsonNode messages;
        try {
            messages = Json.MAPPER.readTree(r.form().getOrDefault("messages", "[]"));
        } catch (IOException e) {
            return Reply.json(200, Map.of("code", 12, "message", "messages is not JSON"));
        }
        if (!messages.isArray() || messages.isEmpty() || messages.size() > 1000) {
            return Reply.json(200, Map.of("code", 13, "message", "1 to 1000 messages"));
        }
        if (!admit(messages.size())) {
            return new Reply(
                    200, Json.write(Map.of("code", -2, "message", "flow control")), retryAfter());
        }
        List<Map<String, Object>> data = new ArrayList<>();
        for (JsonNode m : messages) {
            String regId = m.path("target_value").asText();
            String appMessageId = m.path("notification").path("app_message_id").asText("");
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("registrationId", regId);
            if (deliver(appMessageId, regId)) {
                one.put("messageId", issue());
                one.put("errorCode", 0);
            } else {
                one.put("errorCode", 10000);
                one.put("errorMessage", "Invalid RegistrationId");
            }
            data.add(one);
        }
        return Reply.json(200, Map.of("code", 0, "message", "Success", "data", data));
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
