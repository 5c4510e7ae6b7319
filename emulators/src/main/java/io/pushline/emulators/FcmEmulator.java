package io.pushline.emulators;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Firebase Cloud Messaging's HTTP v1 API: a service account of its own (an RSA key made per run,
 * written as the JSON file google-auth reads, its {@code token_uri} pointing here), {@code POST
 * /token} for the JWT-bearer grant (the assertion's RS256 signature checked against that key), and
 * {@code POST /v1/projects/{project}/messages:send} with v1's error body: UNREGISTERED (404),
 * QUOTA_EXCEEDED (429, Retry-After), UNAVAILABLE (503). The collapse id is {@code collapse_key}.
 */
public final class FcmEmulator extends HttpEmulator {
    private final KeyPair key;

    public FcmEmulator(EmulatorCredentials c, Behaviour b, int port) throws IOException {
        super(Vendor.FCM, c, b, port);
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            this.key = g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the service-account JSON a gateway uses to reach this emulator. */
    public Path writeServiceAccount(Path file) throws IOException {
        String pem =
                "-----BEGIN PRIVATE KEY-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                .encodeToString(key.getPrivate().getEncoded())
                        + "\n-----END PRIVATE KEY-----\n";
        Map<String, String> sa = new LinkedHashMap<>();
        sa.put("type", "service_account");
        sa.put("project_id", credentials.appId());
        sa.put("private_key_id", "pushline-emulator");
        sa.put("private_key", pem);
        sa.put("client_email", "pushline@" + credentials.appId() + ".iam.gserviceaccount.com");
        sa.put("client_id", "1");
        sa.put("token_uri", url() + "/token");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, Json.write(sa));
        try {
            Files.setPosixFilePermissions(
                    file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // best effort
        }
        return file;
    }

    @Override
    protected Reply answer(Request r) {
        if (r.path().equals("/token")) {
            Map<String, String> f = r.form();
            if (!"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(f.get("grant_type"))
                    || !signedByUs(f.getOrDefault("assertion", ""))) {
                counts.unauthorized.incrementAndGet();
                return Reply.json(
                        400,
                        Map.of(
                                "error",
                                "invalid_grant",
                                "error_description",
                                "Invalid JWT Signature."));
            }
            return Reply.json(
                    200,
                    Map.of("access_token", issue(), "expires_in", 3599, "token_type", "Bearer"));
        }
        if (!r.path().equals("/v1/projects/" + credentials.appId() + "/messages:send")) {
            return error(404, "NOT_FOUND", null, Map.of());
        }
        if (!authorized(bearer(r))) {
            return error(401, "UNAUTHENTICATED", null, Map.of());
        }
        counts.calls.incrementAndGet();
        if (fails()) {
            return error(503, "UNAVAILABLE", "UNAVAILABLE", Map.of());
        }
        JsonNode m = r.json().path("message");
        String token = m.path("token").asText(null);
        if (token == null) {
            return error(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", Map.of());
        }
        if (!admit(1)) {
            return error(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", retryAfter());
        }
        if (!deliver(m.path("android").path("collapse_key").asText(""), token)) {
            return error(404, "NOT_FOUND", "UNREGISTERED", Map.of());
        }
        return Reply.json(
                200, Map.of("name", "projects/" + credentials.appId() + "/messages/" + issue()));
    }

    private static Reply error(
            int status, String grpc, String fcmCode, Map<String, String> headers) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("code", status);
        e.put("message", grpc);
        e.put("status", grpc);
        if (fcmCode != null) {
            e.put(
                    "details",
                    List.of(
                            Map.of(
                                    "@type",
                                    "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                                    "errorCode",
                                    fcmCode)));
        }
        return new Reply(status, Json.write(Map.of("error", e)), headers);
    }

    private boolean signedByUs(String jwt) {
        String[] parts = jwt.split("\\.");
        if (parts.length != 3) {
            return false;
        }
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initVerify(key.getPublic());
            s.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            return s.verify(Base64.getUrlDecoder().decode(parts[2]));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }
}
