package io.pushline.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** {@code local.env}: where {@code ./pushline local up} says its Kafka and HBase are. */
public final class LocalEnv {
    private LocalEnv() {}

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
}
