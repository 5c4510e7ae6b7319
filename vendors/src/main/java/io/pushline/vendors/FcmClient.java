package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Firebase Cloud Messaging, HTTP v1 API: {@code POST /v1/projects/{project}/messages:send}, one
 * token per call (v1 has no multicast; HTTP/2 carries many calls on one connection), with an OAuth
 * 2.0 access token that google-auth-library gets from the service-account JSON (its {@code
 * token_uri}) for the scope {@code firebase.messaging}. Errors by the v1 {@code FcmError} code:
 * UNREGISTERED (404) and SENDER_ID_MISMATCH are invalid tokens, QUOTA_EXCEEDED (429) a throttle
 * with Retry-After, UNAVAILABLE and INTERNAL a retry. {@code collapse_key}, the Android {@code tag}
 * and {@code apns-collapse-id} carry the msgId, so a resend replaces the first copy.
 */
final class FcmClient extends HttpVendor {
    static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";

    private final GoogleCredentials credentials;
    private final String project;
    private final AccessTokens tokens;
    private final ExecutorService refresher =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "pushline-fcm-oauth");
                        t.setDaemon(true);
                        return t;
                    });

    FcmClient(VendorSettings s) {
        super(s);
        ServiceAccountCredentials account;
        try (InputStream in = Files.newInputStream(Path.of(s.credentials()))) {
            account = ServiceAccountCredentials.fromStream(in);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the FCM service account " + s.credentials(), e);
        }
        this.credentials = account.createScoped(List.of(SCOPE));
        this.project =
                s.appId() != null && !s.appId().isEmpty() ? s.appId() : account.getProjectId();
        this.tokens =
                new AccessTokens(
                        () ->
                                CompletableFuture.supplyAsync(
                                        () -> {
                                            try {
                                                AccessToken t = credentials.refreshAccessToken();
                                                long exp =
                                                        t.getExpirationTime() == null
                                                                ? System.currentTimeMillis()
                                                                        + 3_600_000
                                                                : t.getExpirationTime().getTime();
                                                return new AccessTokens.Token(
                                                        t.getTokenValue(), exp);
                                            } catch (IOException e) {
                                                throw new UncheckedIOException(e);
                                            }
                                        },
                                        refresher));
    }

    @Override
    public int maxBatch() {
        return 1;
    }

    @Override
    protected CompletableFuture<List<Answer>> call(List<SendRecord> sends) {
        SendRecord s = sends.get(0);
        String collapse = Collapse.id(s.msgId);
        ObjectNode body = Json.MAPPER.createObjectNode();
        ObjectNode m = body.putObject("message");
        m.put("token", s.token);
        m.putObject("notification").put("title", orEmpty(s.title)).put("body", orEmpty(s.body));
        m.putObject("data").put("msgId", s.msgId);
        ObjectNode android = m.putObject("android");
        android.put("collapse_key", collapse);
        android.putObject("notification").put("tag", collapse);
        m.putObject("apns").putObject("headers").put("apns-collapse-id", collapse);
        String url = settings.base() + "/v1/projects/" + project + "/messages:send";
        return tokens.get()
                .thenCompose(
                        t ->
                                http.postJson(
                                                url,
                                                body.toString(),
                                                Map.of("Authorization", "Bearer " + t))
                                        .thenApply(r -> List.of(answer(r, t))));
    }

    private Answer answer(Http.Reply r, String token) {
        if (r.ok()) {
            return Answer.SENT;
        }
        JsonNode error = json(r.body()).path("error");
        String code = error.path("status").asText(null);
        for (JsonNode d : error.path("details")) {
            if (d.has("errorCode")) {
                code = d.path("errorCode").asText();
            }
        }
        if (r.status() == 401) {
            tokens.invalidate(token);
            return Answer.unavailable("UNAUTHENTICATED");
        }
        if ("UNREGISTERED".equals(code) || "SENDER_ID_MISMATCH".equals(code)) {
            return Answer.tokenInvalid(code);
        }
        return forStatus(r, code);
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        super.close();
    }
}
