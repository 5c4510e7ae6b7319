package io.pushline.emulators;

import com.eatthepath.pushy.apns.server.MockApnsServer;
import com.eatthepath.pushy.apns.server.MockApnsServerBuilder;
import com.eatthepath.pushy.apns.server.RejectedNotificationException;
import com.eatthepath.pushy.apns.server.RejectionReason;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * APNs for tests and local runs: Pushy's {@code MockApnsServer} (real HTTP/2 over TLS, with a
 * certificate made for the run by the JDK's keytool), answering only calls whose provider token is
 * an ES256 JWT signed with the run's .p8 key; tokens starting with {@code invalid} (or the
 * behaviour's share) are {@code Unregistered}, beyond the quota {@code TooManyRequests}, the error
 * share {@code ServiceUnavailable}. The collapse id is {@code apns-collapse-id}. Latency is not
 * emulated: Pushy's handler answers on the connection's event loop, where a wait would stall the
 * connection.
 */
public final class ApnsEmulator implements AutoCloseable {
    public static final String TOPIC = "io.pushline.demo";
    public static final String TEAM_ID = "PUSHLINE01";
    public static final String KEY_ID = "EMULATOR01";

    public final Counts counts = new Counts();
    private final MockApnsServer server;
    private final int port;
    private final Path certificate;
    private final Path signingKey;
    private final KeyPair key;
    private volatile Behaviour behaviour;
    private double bucket = 1;
    private long bucketAt = System.nanoTime();
    private final java.util.Set<String> verified =
            java.util.concurrent.ConcurrentHashMap.newKeySet();

    public ApnsEmulator(Path dir, Behaviour behaviour) throws Exception {
        this.behaviour = behaviour;
        Files.createDirectories(dir);
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        this.key = g.generateKeyPair();
        this.signingKey = dir.resolve("apns-signing-key.p8");
        Files.writeString(signingKey, pem("PRIVATE KEY", key.getPrivate().getEncoded()));
        Path p12 = dir.resolve("apns-emulator.p12");
        Files.deleteIfExists(p12);
        char[] pass = ("p" + System.nanoTime()).toCharArray();
        keytool(p12, new String(pass));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            ks.load(in, pass);
        }
        PrivateKey serverKey = (PrivateKey) ks.getKey("apns", pass);
        X509Certificate cert = (X509Certificate) ks.getCertificate("apns");
        this.certificate = dir.resolve("apns-emulator.pem");
        Files.writeString(certificate, pem("CERTIFICATE", cert.getEncoded()));
        this.server =
                new MockApnsServerBuilder()
                        .setServerCredentials(new X509Certificate[] {cert}, serverKey, null)
                        .setHandlerFactory(session -> this::handle)
                        .build();
        this.port = server.start(0).get(30, TimeUnit.SECONDS);
    }

    private static void keytool(Path p12, String pass) throws IOException, InterruptedException {
        Path tool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p =
                new ProcessBuilder(
                                List.of(
                                        tool.toString(),
                                        "-genkeypair",
                                        "-alias",
                                        "apns",
                                        "-keyalg",
                                        "EC",
                                        "-groupname",
                                        "secp256r1",
                                        "-dname",
                                        "CN=127.0.0.1",
                                        "-ext",
                                        "san=ip:127.0.0.1,dns:localhost",
                                        "-validity",
                                        "30",
                                        "-keystore",
                                        p12.toString(),
                                        "-storetype",
                                        "PKCS12",
                                        "-storepass",
                                        pass))
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("keytool could not make the APNs emulator's certificate: " + out);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN "
                + type
                + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END "
                + type
                + "-----\n";
    }

    private void handle(Http2Headers headers, io.netty.buffer.ByteBuf payload)
            throws RejectedNotificationException {
        CharSequence auth = headers.get("authorization");
        if (auth == null || !signedByUs(auth.toString())) {
            counts.unauthorized.incrementAndGet();
            throw new RejectedNotificationException(RejectionReason.INVALID_PROVIDER_TOKEN);
        }
        counts.calls.incrementAndGet();
        Behaviour b = behaviour;
        if (ThreadLocalRandom.current().nextDouble() < b.errorShare()) {
            counts.errors.incrementAndGet();
            throw new RejectedNotificationException(RejectionReason.SERVICE_UNAVAILABLE);
        }
        if (!admit(b)) {
            throw new RejectedNotificationException(RejectionReason.TOO_MANY_REQUESTS);
        }
        String path = headers.path() == null ? "" : headers.path().toString();
        String token = path.startsWith("/3/device/") ? path.substring(10) : "";
        if (b.invalid(token)) {
            counts.invalid.incrementAndGet();
            throw new RejectedNotificationException(RejectionReason.UNREGISTERED);
        }
        CharSequence collapse = headers.get("apns-collapse-id");
        counts.accept(collapse == null ? "" : collapse.toString(), token);
    }

    private synchronized boolean admit(Behaviour b) {
        if (b.throttleShare() > 0 && ThreadLocalRandom.current().nextDouble() < b.throttleShare()) {
            counts.throttled.incrementAndGet();
            return false;
        }
        double q = b.quotaPerSecond();
        if (q <= 0) {
            return true;
        }
        long now = System.nanoTime();
        bucket = Math.min(Math.max(q / 10, 1), bucket + q * (now - bucketAt) / 1e9);
        bucketAt = now;
        if (bucket >= 1) {
            bucket -= 1;
            return true;
        }
        counts.throttled.incrementAndGet();
        return false;
    }

    /**
     * Whether the provider token is ours. A verified token is remembered, as APNs does: a client
     * reuses its token for up to an hour, and checking the signature on every call would cost this
     * emulator more CPU than the gateway spends on the call.
     */
    private boolean signedByUs(String authorization) {
        if (verified.contains(authorization)) {
            return true;
        }
        if (!verify(authorization)) {
            return false;
        }
        if (verified.size() > 1_000) {
            verified.clear();
        }
        verified.add(authorization);
        return true;
    }

    private boolean verify(String authorization) {
        if (!authorization.startsWith("bearer ")) {
            return false;
        }
        String[] parts = authorization.substring(7).split("\\.");
        if (parts.length != 3) {
            return false;
        }
        try {
            byte[] sig = Base64.getUrlDecoder().decode(parts[2]);
            // JWS's ES256 is the 64-byte r||s; Pushy 0.15 sends the DER form, which APNs takes
            Signature s =
                    Signature.getInstance(
                            sig.length == 64 ? "SHA256withECDSAinP1363Format" : "SHA256withECDSA");
            s.initVerify(key.getPublic());
            s.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            return s.verify(sig);
        } catch (Exception e) {
            return false;
        }
    }

    public void behave(Behaviour b) {
        synchronized (this) {
            bucket = Math.max(b.quotaPerSecond() / 10, 1);
            bucketAt = System.nanoTime();
        }
        this.behaviour = b;
    }

    public String url() {
        return "https://127.0.0.1:" + port;
    }

    /** The PEM certificate the gateway must trust to reach this emulator. */
    public Path certificate() {
        return certificate;
    }

    /** The .p8 signing key the gateway signs its provider tokens with. */
    public Path signingKey() {
        return signingKey;
    }

    @Override
    public void close() {
        try {
            server.shutdown().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // stopping anyway
        }
    }
}
