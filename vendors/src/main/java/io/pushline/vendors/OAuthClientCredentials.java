package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The OAuth 2.0 client-credentials grant Huawei's and Honor's push kits use: app id and secret
 * posted as a form to the token endpoint, a bearer token with {@code expires_in} seconds back.
 */
final class OAuthClientCredentials {
    private OAuthClientCredentials() {}

    static AccessTokens tokens(Http http, String tokenUrl, String clientId, String secret) {
        return new AccessTokens(
                () -> {
                    Map<String, String> form = new LinkedHashMap<>();
                    form.put("grant_type", "client_credentials");
                    form.put("client_id", clientId);
                    form.put("client_secret", secret);
                    return http.postForm(tokenUrl, form, Map.of())
                            .thenCompose(OAuthClientCredentials::token);
                });
    }

    private static CompletableFuture<AccessTokens.Token> token(Http.Reply r) {
        JsonNode n = HttpVendor.json(r.body());
        String token = n.path("access_token").asText(null);
        if (!r.ok() || token == null) {
            return CompletableFuture.failedFuture(
                    new IllegalStateException("token endpoint answered " + r.status()));
        }
        long ttl = n.path("expires_in").asLong(3600);
        return CompletableFuture.completedFuture(
                new AccessTokens.Token(token, System.currentTimeMillis() + ttl * 1000));
    }
}
