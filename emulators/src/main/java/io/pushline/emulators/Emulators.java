package io.pushline.emulators;

import io.pushline.schema.Vendor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Every emulated vendor, started together on free loopback ports with credentials made up for the
 * run: what {@code local up}, the tests and {@code bench gateway} point the gateway at.
 */
public final class Emulators implements AutoCloseable {
    /** Where one emulator listens and what it accepts, for the gateway's options. */
    public record Endpoint(
            Vendor vendor,
            String url,
            String appId,
            String appKey,
            String secret,
            String credentialsFile) {}

    private final Map<Vendor, HttpEmulator> http = new EnumMap<>(Vendor.class);
    private final Map<Vendor, Endpoint> endpoints = new EnumMap<>(Vendor.class);
    private ApnsEmulator apns;

    private Emulators() {}

    /**
     * Starts every vendor's emulator; files (FCM's service account, APNs' key and certificate) go
     * under {@code dir}.
     */
    public static Emulators start(Path dir, Behaviour behaviour) throws IOException {
        Emulators e = new Emulators();
        try {
            try {
                e.apns = new ApnsEmulator(dir, behaviour);
            } catch (IOException io) {
                throw io;
            } catch (Exception other) {
                throw new IOException("cannot start the APNs emulator: " + other, other);
            }
            e.endpoints.put(
                    Vendor.APNS,
                    new Endpoint(
                            Vendor.APNS,
                            e.apns.url(),
                            ApnsEmulator.TOPIC,
                            ApnsEmulator.KEY_ID,
                            ApnsEmulator.TEAM_ID,
                            e.apns.signingKey().toString()));
            for (Vendor v :
                    List.of(
                            Vendor.FCM,
                            Vendor.HUAWEI,
                            Vendor.HONOR,
                            Vendor.XIAOMI,
                            Vendor.OPPO,
                            Vendor.VIVO)) {
                EmulatorCredentials c =
                        new EmulatorCredentials(
                                v == Vendor.XIAOMI
                                        ? "io.pushline.demo"
                                        : "pushline-" + v.wireName(),
                                "key-" + UUID.randomUUID(),
                                "secret-" + UUID.randomUUID());
                HttpEmulator em = make(v, c, behaviour);
                e.http.put(v, em);
                String file = null;
                if (v == Vendor.FCM) {
                    file =
                            ((FcmEmulator) em)
                                    .writeServiceAccount(dir.resolve("fcm-service-account.json"))
                                    .toString();
                }
                e.endpoints.put(
                        v, new Endpoint(v, em.url(), c.appId(), c.appKey(), c.secret(), file));
            }
        } catch (IOException | RuntimeException failed) {
            e.close();
            throw failed;
        }
        return e;
    }

    private static HttpEmulator make(Vendor v, EmulatorCredentials c, Behaviour b)
            throws IOException {
        switch (v) {
            case FCM:
                return new FcmEmulator(c, b, 0);
            case HUAWEI:
                return new HuaweiEmulator(c, b, 0);
            case HONOR:
                return new HonorEmulator(c, b, 0);
            case XIAOMI:
                return new XiaomiEmulator(c, b, 0);
            case OPPO:
                return new OppoEmulator(c, b, 0);
            case VIVO:
                return new VivoEmulator(c, b, 0);
            default:
                throw new IllegalArgumentException("no HTTP emulator for " + v);
        }
    }

    public Endpoint endpoint(Vendor v) {
        return endpoints.get(v);
    }

    public List<Endpoint> endpoints() {
        return new ArrayList<>(endpoints.values());
    }

    /**
     * The gateway's options that point it at these emulators ({@code gateway.<vendor>.url},
     * credentials, {@code gateway.vendors}); the secrets are this run's, made up at start.
     */
    public Map<String, String> gatewayOptions() {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (Endpoint e : endpoints.values()) {
            String p = "gateway." + e.vendor().wireName() + ".";
            names.add(e.vendor().wireName());
            o.put(p + "url", e.url());
            o.put(p + "app-id", e.appId());
            if (e.vendor() == Vendor.OPPO || e.vendor() == Vendor.VIVO) {
                o.put(p + "app-key", e.appKey());
            }
            if (e.vendor() != Vendor.FCM) {
                o.put(p + "secret", e.secret());
            }
            if (e.vendor() == Vendor.HUAWEI || e.vendor() == Vendor.HONOR) {
                o.put(p + "auth-url", e.url());
            }
            if (e.credentialsFile() != null) {
                o.put(p + "credentials", e.credentialsFile());
            }
            if (e.vendor() == Vendor.APNS) {
                o.put(p + "app-key", e.appKey());
                o.put(p + "trusted-cert", apns.certificate().toString());
            }
        }
        o.put("gateway.vendors", String.join(";", names));
        return o;
    }

    /**
     * {@link #gatewayOptions()} with each secret moved to an owner-only file under {@code dir} and
     * given as {@code ${file:..}}: what a command line or a log may show.
     */
    public Map<String, String> gatewayOptions(Path dir) throws IOException {
        Map<String, String> o = gatewayOptions();
        java.nio.file.Files.createDirectories(dir);
        for (Map.Entry<String, String> kv : o.entrySet()) {
            if (kv.getKey().endsWith(".secret")) {
                Path f = dir.resolve(kv.getKey() + ".txt");
                java.nio.file.Files.deleteIfExists(f);
                java.nio.file.Files.createFile(
                        f,
                        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                java.nio.file.attribute.PosixFilePermissions.fromString(
                                        "rw-------")));
                java.nio.file.Files.writeString(
                        f, kv.getValue(), java.nio.charset.StandardCharsets.UTF_8);
                kv.setValue("${file:" + f.toAbsolutePath() + "}");
            }
        }
        return o;
    }

    public HttpEmulator emulator(Vendor v) {
        return http.get(v);
    }

    public ApnsEmulator apns() {
        return apns;
    }

    /** What vendor {@code v}'s emulator saw. */
    public Counts counts(Vendor v) {
        return v == Vendor.APNS ? apns.counts : http.get(v).counts;
    }

    /** Every emulator's counts added up. */
    public long total(
            java.util.function.Function<Counts, java.util.concurrent.atomic.AtomicLong> which) {
        return http.values().stream().mapToLong(e -> which.apply(e.counts).get()).sum()
                + (apns == null ? 0 : which.apply(apns.counts).get());
    }

    /** Changes every emulator's behaviour. */
    public void behave(Behaviour b) {
        http.values().forEach(e -> e.behave(b));
        if (apns != null) {
            apns.behave(b);
        }
    }

    @Override
    public void close() {
        http.values().forEach(HttpEmulator::close);
        if (apns != null) {
            apns.close();
        }
    }
}
