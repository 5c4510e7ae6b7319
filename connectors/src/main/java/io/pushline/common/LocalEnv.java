package io.pushline.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code local.env}: where {@code ./pushline local up} says its Kafka and HBase are. */
public final class LocalEnv {
    private LocalEnv() {}

    /**
     * {@code --kafka.bootstrap-servers} and {@code --hbase.zookeeper.quorum} from {@code local.env}
     * under {@code home}, when {@code ./pushline local up} wrote one; options given after them win.
     */
    public static List<String> options(Path home) throws IOException {
        Map<String, String> env = read(home);
        List<String> out = new ArrayList<>();
        if (env.containsKey("KAFKA_BOOTSTRAP")) {
            out.add("--" + CommonOptions.KAFKA_BOOTSTRAP.key());
            out.add(env.get("KAFKA_BOOTSTRAP"));
        }
        if (env.containsKey("HBASE_ZK_QUORUM")) {
            out.add("--" + CommonOptions.HBASE_ZK_QUORUM.key());
            out.add(env.get("HBASE_ZK_QUORUM"));
        }
        return out;
    }

    /**
     * What {@code local.env} under {@code home} says ({@code KAFKA_BOOTSTRAP}, {@code
     * HBASE_ZK_QUORUM}), empty when {@code ./pushline local up} wrote none.
     */
    public static Map<String, String> read(Path home) throws IOException {
        Map<String, String> env = new HashMap<>();
        Path file = home.resolve("local.env");
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    env.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        }
        return env;
    }

    /** Where {@code local up} writes the gateway's options for the vendor emulators it runs. */
    public static final String GATEWAY_FILE = "gateway.env";

    /**
     * The gateway's options for the emulators {@code ./pushline local up} runs ({@code --key value}
     * from {@code gateway.env} under {@code home}; secrets as {@code ${file:..}}), empty when it
     * wrote none.
     */
    public static List<String> gatewayOptions(Path home) throws IOException {
        List<String> out = new ArrayList<>();
        Path file = home.resolve(GATEWAY_FILE);
        if (Files.isRegularFile(file)) {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith("#")) {
                    out.add("--" + line.substring(0, eq).trim());
                    out.add(line.substring(eq + 1).trim());
                }
            }
        }
        return out;
    }
}
