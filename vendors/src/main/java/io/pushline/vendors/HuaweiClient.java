package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Huawei Push Kit, server API v1: a bearer token from {@code POST /oauth2/v3/token} (client
 * credentials: app id and app secret), then {@code POST /v1/{appId}/messages:send} with up to 1,000
 * tokens per message. Result codes: 80000000 success; 80100000 partial success, the refused tokens
 * listed in {@code msg} as {@code illegal_tokens}; 80300007 all tokens invalid; 80200003 the access
 * token expired (fetched again); HTTP 429 and 503 flow control. The notification's {@code tag} is
 * the collapse id: a resend replaces the first copy.
 */
final class HuaweiClient extends HttpVendor {
    private final AccessTokens tokens;

    HuaweiClient(VendorSettings s) {
        super(s);
        this.tokens =
                OAuthClientCredentials.tokens(
                        http, s.authBase() + "/oauth2/v3/token", s.appId(), s.secret());
    }

    @Override
    public int maxBatch() {
        return 1_000;
    }

    @Override
    protected CompletableFuture<List<Answer>> call(List<SendRecord> sends) {
        SendRecord first = sends.get(0);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("validate_only", false);
        ObjectNode message = body.putObject("message");
        ObjectNode android = message.putObject("android");
        ObjectNode n = android.putObject("notification");
        n.put("title", orEmpty(first.title));
        n.put("body", orEmpty(first.body));
        n.put("tag", Collapse.id(first.msgId));
        n.putObject("click_action").put("type", 3);
        message.put("data", Json.MAPPER.createObjectNode().put("msgId", first.msgId).toString());
        var tokenList = message.putArray("token");
        sends.forEach(s -> tokenList.add(s.token));
        String url = settings.base() + "/v1/" + settings.appId() + "/messages:send";
        return tokens.get()
                .thenCompose(
                        t ->
                                http.postJson(
                                                url,
                                                body.toString(),
                                                Map.of("Authorization", "Bearer " + t))
                                        .thenApply(r -> answers(r, t, sends)));
    }

    private List<Answer> answers(Http.Reply r, String token, List<SendRecord> sends) {
        JsonNode n = json(r.body());
        String code = n.path("code").asText(null);
        if ("80200003".equals(code) || "80200001".equals(code) || r.status() == 401) {
            tokens.invalidate(token);
            return all(sends.size(), Answer.unavailable(code == null ? "401" : code));
        }
        if (!r.ok()) {
            return all(sends.size(), forStatus(r, code));
        }
        if ("80000000".equals(code)) {
            return all(sends.size(), Answer.SENT);
        }
        if ("80300007".equals(code)) {
            return all(sends.size(), Answer.tokenInvalid(code));
        }
        if ("80100000".equals(code)) {
            Set<String> illegal = set(json(n.path("msg").asText("")).path("illegal_tokens"));
            List<Answer> out = new ArrayList<>(sends.size());
            for (SendRecord s : sends) {
                out.add(illegal.contains(s.token) ? Answer.tokenInvalid(code) : Answer.SENT);
            }
            return out;
        }
        return all(sends.size(), Answer.failed(code == null ? "no code" : code));
    }
}
