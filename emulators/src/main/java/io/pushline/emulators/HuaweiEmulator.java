package io.pushline.emulators;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Huawei Push Kit as its server API v1 documents it: {@code POST /oauth2/v3/token} (client
 * credentials) and {@code POST /v1/{appId}/messages:send} with up to 1,000 tokens; 80000000,
 * 80100000 with {@code illegal_tokens}, 80300007, 80300010 (too many tokens), 80200003 (bad access
 * token, HTTP 401), 81000001 (HTTP 503), flow control as HTTP 429 with Retry-After. The collapse id
 * is the notification's {@code tag}.
 */
public final class HuaweiEmulator extends HttpEmulator {
    public HuaweiEmulator(EmulatorCredentials c, Behaviour b, int port) throws IOException {
        super(Vendor.HUAWEI, c, b, port);
    }

    @Override
    protected Reply answer(Request r) {
        if (r.path().equals("/oauth2/v3/token")) {
            return OAuthEndpoint.clientCredentials(this, r);
        }
        if (!r.path().equals("/v1/" + credentials.appId() + "/messages:send")) {
            return Reply.json(404, Map.of("code", "80300002", "msg", "unknown path"));
        }
        if (!authorized(bearer(r))) {
            return Reply.json(401, Map.of("code", "80200003", "msg", "OAuth token expired"));
        }
        counts.calls.incrementAndGet();
        if (fails()) {
            return Reply.json(503, Map.of("code", "81000001", "msg", "System inner error"));
        }
        JsonNode m = r.json().path("message");
        JsonNode tokens = m.path("token");
        if (!tokens.isArray() || tokens.isEmpty() || tokens.size() > 1000) {
            return Reply.json(
                    400,
                    Map.of("code", "80300010", "msg", "the number of tokens must be 1 to 1000"));
        }
        if (!admit(tokens.size())) {
            return new Reply(
                    429,
                    Json.write(Map.of("code", "80300013", "msg", "flow control")),
                    retryAfter());
        }
        String tag = m.path("android").path("notification").path("tag").asText("");
        List<String> illegal = new ArrayList<>();
        for (JsonNode t : tokens) {
            if (!deliver(tag, t.asText())) {
                illegal.add(t.asText());
            }
        }
        if (illegal.isEmpty()) {
            return Reply.json(
                    200, Map.of("code", "80000000", "msg", "Success", "requestId", issue()));
        }
        if (illegal.size() == tokens.size()) {
            return Reply.json(200, Map.of("code", "80300007", "msg", "All the tokens are invalid"));
        }
        String msg =
                Json.write(
                        Map.of(
                                "success",
                                tokens.size() - illegal.size(),
                                "failure",
                                illegal.size(),
                                "illegal_tokens",
                                illegal));
        return Reply.json(200, Map.of("code", "80100000", "msg", msg, "requestId", issue()));
    }
}
