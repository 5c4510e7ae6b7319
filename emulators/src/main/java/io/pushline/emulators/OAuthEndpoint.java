package io.pushline.emulators;

import java.util.Map;

/** The client-credentials token endpoint Huawei and Honor share. */
final class OAuthEndpoint {
    private OAuthEndpoint() {}

    static HttpEmulator.Reply clientCredentials(HttpEmulator e, HttpEmulator.Request r) {
        Map<String, String> f = r.form();
        if (!"client_credentials".equals(f.get("grant_type"))
                || !e.credentials.appId().equals(f.get("client_id"))
                || !e.credentials.secret().equals(f.get("client_secret"))) {
            e.counts.unauthorized.incrementAndGet();
            return HttpEmulator.Reply.json(
                    400, Map.of("error", 1101, "error_description", "invalid client credentials"));
        }
        return HttpEmulator.Reply.json(
                200, Map.of("access_token", e.issue(), "expires_in", 3600, "token_type", "Bearer"));
    }
}
