package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * OPPO Push, server API v1: an {@code auth_token} (valid 24 h) from {@code POST /server/v1/auth}
 * signed {@code sha256(app_key + timestamp + master_secret)}, then {@code POST
 * /server/v1/message/notification/unicast_batch} with up to 1,000 messages, each with its own
 * regid; every message answers with an {@code errorCode} (0 sent, 10000 invalid regid). Call codes:
 * 11 invalid auth_token (fetched again), -2 flow control, -1 busy. {@code app_message_id}, from
 * msgId and device, lets OPPO drop a resend.
 */
final class OppoClient extends HttpVendor {
    static final long TOKEN_TTL_MS = 24 * 3_600_000L;

    private final AccessTokens tokens;

    OppoClient(VendorSettings s) {
        super(s);
        this.tokens =
                new AccessTokens(
                        () -> {
                            String ts = String.valueOf(System.currentTimeMillis());
                            Map<String, String> form = new LinkedHashMap<>();
                            form.put("app_key", s.appKey());
                            form.put("sign", Collapse.hex("SHA-256", s.appKey() + ts + s.secret()));
                            form.put("timestamp", ts);
                            return http.postForm(s.authBase() + "/server/v1/auth", form, Map.of())
                                    .thenCompose(OppoClient::token);
                        });
    }

    private static CompletableFuture<AccessTokens.Token> token(Http.Reply r) {
        JsonNode n = json(r.body());
        String t = n.path("data").path("auth_token").asText(null);
        if (!r.ok() || n.path("code").asInt(-1) != 0 || t == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("OPPO auth answered " + r.status()));
        }
        return CompletableFuture.completedFuture(
                new AccessTokens.Token(t, System.currentTimeMillis() + TOKEN_TTL_MS));
    }

    @Override
    public int maxBatch() {
        return 1_000;
    }

    @Override
    protected CompletableFuture<List<Answer>> call(List<SendRecord> sends) {
        ArrayNode messages = Json.MAPPER.createArrayNode();
        for (SendRecord s : sends) {
            ObjectNode m = messages.addObject();
            m.put("target_type", 2);
            m.put("target_value", s.token);
            ObjectNode n = m.putObject("notification");
            n.put("title", orEmpty(s.title));
            n.put("content", orEmpty(s.body));
            n.put("app_message_id", Collapse.id(s.msgId + "/" + s.deviceId));
            n.put(
                    "action_parameters",
                    Json.MAPPER.createObjectNode().put("msgId", s.msgId).toString());
        }
        String url = settings.base() + "/server/v1/message/notification/unicast_batch";
        return tokens.get()
                .thenCompose(
                        t ->
                                http.postForm(
                                                url,
                                                Map.of("messages", messages.toString()),
                                                Map.of("auth_token", t))
                                        .thenApply(r -> answers(r, t, sends)));
    }

    private List<Answer> answers(Http.Reply r, String token, List<SendRecord> sends) {
        JsonNode n = json(r.body());
        String code = n.path("code").asText(null);
        if ("11".equals(code) || r.status() == 401) {
            tokens.invalidate(token);
            return all(sends.size(), Answer.unavailable(code == null ? "401" : code));
        }
        if ("-2".equals(code)) {
            return all(
                    sends.size(),
                    Answer.throttled(
                            code, Http.retryAfterMs(r.retryAfter(), DEFAULT_RETRY_AFTER_MS)));
        }
        if (!r.ok() || "-1".equals(code)) {
            return all(
                    sends.size(),
                    forStatus(r.ok() ? new Http.Reply(503, r.body(), null) : r, code));
        }
        if (!"0".equals(code)) {
            return all(sends.size(), Answer.failed(code == null ? "no code" : code));
        }
        Map<String, Integer> errors = new HashMap<>();
        for (JsonNode m : n.path("data")) {
            errors.put(m.path("registrationId").asText(), m.path("errorCode").asInt(0));
        }
        List<Answer> out = new ArrayList<>(sends.size());
        for (SendRecord s : sends) {
            int e = errors.getOrDefault(s.token, 0);
            out.add(
                    e == 0
                            ? Answer.SENT
                            : e == 10000
                                    ? Answer.tokenInvalid("10000")
                                    : Answer.failed(String.valueOf(e)));
        }
        return out;
    }
}
