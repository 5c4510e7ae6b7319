package io.pushline.cli;

import io.pushline.common.LocalEnv;
import io.pushline.emulators.Behaviour;
import io.pushline.emulators.Emulators;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The vendor emulators {@code local up} and the demo run, and the gateway options that point at
 * them: written to {@code gateway.env}, each secret in a file of its own (owner-only) referred to
 * as {@code ${file:..}}, so no secret is on a command line or in a log.
 */
final class LocalEmulators {
    private LocalEmulators() {}

    /** As a vendor behaves on a normal day: 20 ms answers, one token in a hundred stale. */
    static final Behaviour LOCAL = Behaviour.PLAIN.withLatency(20).withInvalidShare(0.01);

    static Emulators start(Path home, Behaviour behaviour) throws IOException {
        return Emulators.start(home.resolve("emulators"), behaviour);
    }

    /** The gateway's options for {@code e}, secrets moved to files under {@code home/emulators}. */
    static Map<String, String> options(Path home, Emulators e) throws IOException {
        return e.gatewayOptions(home.resolve("emulators"));
    }

    /** Writes {@code gateway.env} under {@code home}. */
    static Path write(Path home, Emulators e) throws IOException {
        StringBuilder b =
                new StringBuilder("# the gateway's options for the vendor emulators of local up\n");
        options(home, e).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        Path f = home.resolve(LocalEnv.GATEWAY_FILE);
        Files.writeString(f, b.toString(), StandardCharsets.UTF_8);
        return f;
    }
}
