package io.pushline.emulators;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Honor Push as its server API v1 documents it: {@code POST /auth/token} (client credentials) and
 * {@code POST /api/v1/{appId}/sendMessage} (bearer token and a {@code timestamp} header, up to
 * 1,000 tokens); code 200 with {@code data.expireTokens} for tokens no longer valid, 80300007 when
 * all are, 80200003 (HTTP 401) for a bad access token, HTTP 503 and 429 with Retry-After. The
 * collapse id is the notification's {@code notifyId}.
 */
public final class HonorEmulator extends HttpEmulator {
    public HonorEmulator(EmulatorCredentials c, Behaviour b, int port) throws IOException {
        super(Vendor.HONOR, c, b, port);
    }

    @Override
    protected Reply answer(Request r) {
        if (r.path().equals("/auth/token")) {
            return OAuthEndpoint.clientCredentials(this, r);
        }
        if (!r.path().equals("/api/v1/" + credentials.appId() + "/sendMessage")) {
            return Reply.json(404, Map.of("code", 80300002, "message", "unknown path"));
        }
        if (!authorized(bearer(r)) || r.header("timestamp") == null) {
            return Reply.json(401, Map.of("code", 80200003, "message", "auth token invalid"));
        }
        counts.calls.incrementAndGet();
        if (fails()) {
            return Reply.json(503, Map.of("code", 80000001, "message", "system busy"));
        }
        JsonNode body = r.json();
        JsonNode tokens = body.path("token");
        if (!tokens.isArray() || tokens.isEmpty() || tokens.size() > 1000) {
            return Reply.json(400, Map.of("code", 80300010, "message", "1 to 1000 tokens"));
        }
        if (!admit(tokens.size())) {
            return new Reply(
                    429,
                    Json.write(Map.of("code", 80300013, "message", "flow control")),
                    retryAfter());
        }
        String notifyId = body.path("android").path("notification").path("notifyId").asText("");
        List<String> expired = new ArrayList<>();
        for (JsonNode t : tokens) {
            if (!deliver(notifyId, t.asText())) {
                expired.add(t.asText());
            }
        }
        if (expired.size() == tokens.size()) {
            return Reply.json(200, Map.of("code", 80300007, "message", "all tokens are invalid"));
        }
        return Reply.json(
                200,
                Map.of(
                        "code",
                        200,
                        "message",
                        "success",
                        "data",
                        Map.of(
                                "sendResult",
                                true,
                                "requestId",
                                issue(),
                                "failTokens",
                                List.of(),
                                "expireTokens",
                                expired)));
    }
}
