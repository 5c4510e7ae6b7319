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

    private Emulators() {}

    /** Starts the HTTP vendors' emulators; files (FCM's service account) go under {@code dir}. */
    public static Emulators start(Path dir, Behaviour behaviour) throws IOException {
        Emulators e = new Emulators();
        try {
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

    public HttpEmulator emulator(Vendor v) {
        return http.get(v);
    }

    /** Every emulator's counts added up. */
    public long total(
            java.util.function.Function<Counts, java.util.concurrent.atomic.AtomicLong> which) {
        return http.values().stream().mapToLong(e -> which.apply(e.counts).get()).sum();
    }

    /** Changes every emulator's behaviour. */
    public void behave(Behaviour b) {
        http.values().forEach(e -> e.behave(b));
    }

    @Override
    public void close() {
        http.values().forEach(HttpEmulator::close);
    }
}
