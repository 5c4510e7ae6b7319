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
 * Honor Push, server API v1: a bearer token from {@code POST /auth/token} (client credentials),
 * then {@code POST /api/v1/{appId}/sendMessage} with a {@code timestamp} header and up to 1,000
 * tokens. The answer's {@code data.expireTokens} are tokens that no longer reach a device, {@code
 * data.failTokens} the ones refused otherwise; code 80300007 all tokens invalid, 80200003 the
 * access token expired. {@code notifyId}, a number from the msgId, makes a resend replace the first
 * copy.
 */
final class HonorClient extends HttpVendor {
    private final AccessTokens tokens;

    HonorClient(VendorSettings s) {
        super(s);
        this.tokens =
                OAuthClientCredentials.tokens(
                        http, s.authBase() + "/auth/token", s.appId(), s.secret());
    }

    @Override
    public int maxBatch() {
        return 1_000;
    }

    @Override
    protected CompletableFuture<List<Answer>> call(List<SendRecord> sends) {
        SendRecord first = sends.get(0);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("data", Json.MAPPER.createObjectNode().put("msgId", first.msgId).toString());
        ObjectNode n = body.putObject("android").putObject("notification");
        n.put("title", orEmpty(first.title));
        n.put("body", orEmpty(first.body));
        n.put("notifyId", Collapse.number(first.msgId));
        n.putObject("clickAction").put("type", 3);
        var tokenList = body.putArray("token");
        sends.forEach(s -> tokenList.add(s.token));
        String url = settings.base() + "/api/v1/" + settings.appId() + "/sendMessage";
        return tokens.get()
                .thenCompose(
                        t ->
                                http.postJson(
                                                url,
                                                body.toString(),
                                                Map.of(
                                                        "Authorization",
                                                        "Bearer " + t,
                                                        "timestamp",
                                                        String.valueOf(System.currentTimeMillis())))
                                        .thenApply(r -> answers(r, t, sends)));
    }

    private List<Answer> answers(Http.Reply r, String token, List<SendRecord> sends) {
        JsonNode n = json(r.body());
        String code = n.path("code").asText(null);
        if ("80200003".equals(code) || r.status() == 401) {
            tokens.invalidate(token);
            return all(sends.size(), Answer.unavailable(code == null ? "401" : code));
        }
        if (!r.ok()) {
            return all(sends.size(), forStatus(r, code));
        }
        if ("80300007".equals(code)) {
            return all(sends.size(), Answer.tokenInvalid(code));
        }
        if (!"200".equals(code) && !"80000000".equals(code)) {
            return all(sends.size(), Answer.failed(code == null ? "no code" : code));
        }
        Set<String> expired = set(n.path("data").path("expireTokens"));
        Set<String> failed = set(n.path("data").path("failTokens"));
        List<Answer> out = new ArrayList<>(sends.size());
        for (SendRecord s : sends) {
            out.add(
                    expired.contains(s.token)
                            ? Answer.tokenInvalid("expireToken")
                            : failed.contains(s.token) ? Answer.failed("failToken") : Answer.SENT);
        }
        return out;
    }
}
