package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * vivo Push, server API: an {@code authToken} (valid 24 h) from {@code POST /message/auth} signed
 * {@code md5(appId + appKey + timestamp + appSecret)}; one device by {@code POST /message/send},
 * two to 1,000 by {@code POST /message/saveListPayload} (the message, a taskId back) then {@code
 * POST /message/pushToList} (regIds and taskId; refused regIds in {@code invalidUsers}). {@code
 * result} 0 is success, 10000 an auth failure (token fetched again), 10302 an invalid regId, 10252
 * too fast. {@code requestId}, from msgId and the devices, lets vivo drop a resend.
 */
final class VivoClient extends HttpVendor {
    static final long TOKEN_TTL_MS = 24 * 3_600_000L;

    private final AccessTokens tokens;

    VivoClient(VendorSettings s) {
        super(s);
        this.tokens =
                new AccessTokens(
                        () -> {
                            String ts = String.valueOf(System.currentTimeMillis());
                            ObjectNode b = Json.MAPPER.createObjectNode();
                            b.put("appId", s.appId());
                            b.put("appKey", s.appKey());
                            b.put("timestamp", Long.parseLong(ts));
                            b.put(
                                    "sign",
                                    Collapse.hex("MD5", s.appId() + s.appKey() + ts + s.secret()));
                            return http.postJson(
                                            s.authBase() + "/message/auth", b.toString(), Map.of())
                                    .thenCompose(VivoClient::token);
                        });
    }

    private static CompletableFuture<AccessTokens.Token> token(Http.Reply r) {
        JsonNode n = json(r.body());
        String t = n.path("authToken").asText(null);
        if (!r.ok() || n.path("result").asInt(-1) != 0 || t == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("vivo auth answered " + r.status()));
        }
        return CompletableFuture.completedFuture(
                new AccessTokens.Token(t, System.currentTimeMillis() + TOKEN_TTL_MS));
    }

    @Override
    public int maxBatch() {
        return 1_000;
    }

    private ObjectNode message(SendRecord first, String requestId) {
        ObjectNode m = Json.MAPPER.createObjectNode();
        m.put("notifyType", 4);
        m.put("title", orEmpty(first.title));
        m.put("content", orEmpty(first.body));
        m.put("skipType", 1);
        m.put("requestId", requestId);
        m.putObject("clientCustomMap").put("msgId", first.msgId);
        return m;
    }

    @Override
    protected CompletableFuture<List<Answer>> call(List<SendRecord> sends) {
        SendRecord first = sends.get(0);
        StringBuilder devices = new StringBuilder(first.msgId);
        sends.forEach(s -> devices.append('/').append(s.deviceId));
        String requestId = Collapse.hex("SHA-256", devices.toString());
        return tokens.get()
                .thenCompose(
                        t ->
                                sends.size() == 1
                                        ? one(t, first, requestId)
                                        : list(t, sends, requestId));
    }

    private CompletableFuture<List<Answer>> one(String t, SendRecord s, String requestId) {
        ObjectNode m = message(s, requestId);
        m.put("regId", s.token);
        return http.postJson(
                        settings.base() + "/message/send", m.toString(), Map.of("authToken", t))
                .thenApply(r -> answers(r, t, List.of(s), Set.of()));
    }

    private CompletableFuture<List<Answer>> list(
            String t, List<SendRecord> sends, String requestId) {
        ObjectNode m = message(sends.get(0), requestId);
        return http.postJson(
                        settings.base() + "/message/saveListPayload",
                        m.toString(),
                        Map.of("authToken", t))
                .thenCompose(
                        saved -> {
                            JsonNode n = json(saved.body());
                            String taskId = n.path("taskId").asText(null);
                            if (!saved.ok() || n.path("result").asInt(-1) != 0 || taskId == null) {
                                return CompletableFuture.completedFuture(
                                        answers(saved, t, sends, Set.of()));
                            }
                            ObjectNode p = Json.MAPPER.createObjectNode();
                            var ids = p.putArray("regIds");
                            sends.forEach(s -> ids.add(s.token));
                            p.put("taskId", taskId);
                            p.put("requestId", requestId);
                            return http.postJson(
                                            settings.base() + "/message/pushToList",
                                            p.toString(),
                                            Map.of("authToken", t))
                                    .thenApply(r -> answers(r, t, sends, invalid(r)));
                        });
    }

    private static Set<String> invalid(Http.Reply r) {
        Set<String> out = new HashSet<>();
        for (JsonNode u : json(r.body()).path("invalidUsers")) {
            out.add(u.path("userid").asText());
        }
        return out;
    }

    private List<Answer> answers(
            Http.Reply r, String token, List<SendRecord> sends, Set<String> invalid) {
        JsonNode n = json(r.body());
        String code = n.path("result").asText(null);
        if ("10000".equals(code) || r.status() == 401) {
            tokens.invalidate(token);
            return all(sends.size(), Answer.unavailable(code == null ? "401" : code));
        }
        if ("10252".equals(code)) {
            return all(
                    sends.size(),
                    Answer.throttled(
                            code, Http.retryAfterMs(r.retryAfter(), DEFAULT_RETRY_AFTER_MS)));
        }
        if (!r.ok()) {
            return all(sends.size(), forStatus(r, code));
        }
        if ("10302".equals(code)) {
            return all(sends.size(), Answer.tokenInvalid(code));
        }
        if (!"0".equals(code)) {
            return all(sends.size(), Answer.failed(code == null ? "no code" : code));
        }
        List<Answer> out = new ArrayList<>(sends.size());
        for (SendRecord s : sends) {
            out.add(invalid.contains(s.token) ? Answer.tokenInvalid("10302") : Answer.SENT);
        }
        return out;
    }
}
