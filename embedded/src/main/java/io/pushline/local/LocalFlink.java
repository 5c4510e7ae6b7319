package io.pushline.local;

import io.pushline.common.PushlineDirs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;

/**
 * Flink configuration for local runs: {@code deploy/flink-conf/config.yaml} (the one production
 * uses) plus local overrides: checkpoints under the stack's folder, a short checkpoint interval so
 * exactly-once output shows within a second or two, Flink's default network flush, and no metric
 * reporter ports.
 */
public final class LocalFlink {
    /** System property or environment variable naming the folder that holds config.yaml. */
    public static final String CONF_DIR_PROPERTY = PushlineDirs.FLINK_CONF_DIR_PROPERTY;

    public static final String CONF_DIR_ENV = PushlineDirs.FLINK_CONF_DIR_ENV;

    private static final String BUFFER_TIMEOUT_PREFIX = "execution.buffer-timeout.";

    private LocalFlink() {}

    public static Configuration configuration(Path dataDir) {
        Path confDir = findConfDir();
        Configuration conf =
                confDir == null
                        ? new Configuration()
                        : GlobalConfiguration.loadConfiguration(confDir.toString());
        Map<String, String> local = new HashMap<>();
        local.put("state.backend.type", "rocksdb");
        local.put("execution.checkpointing.incremental", "true");
        local.put("execution.checkpointing.mode", "EXACTLY_ONCE");
        local.put("execution.checkpointing.interval", "1 s");
        local.put("execution.checkpointing.min-pause", "200 ms");
        // Production flushes every 10 ms for realtime latency; locally a send shows only at the
        // next checkpoint (a second), and each task's flusher waking 100 times a second cost a
        // third of the CPU of dispatch's integration tests (210 -> 140 CPU-s at 100 ms).
        // Benchmarks that time sends take production's value (productionCheckpoints).
        local.put(BUFFER_TIMEOUT_PREFIX + "interval", "100 ms");
        local.put("execution.checkpointing.dir", dataDir.resolve("checkpoints").toUri().toString());
        local.put(
                "execution.checkpointing.savepoint-dir",
                dataDir.resolve("savepoints").toUri().toString());
        local.put("pipeline.generic-types", "false");
        local.put("taskmanager.memory.managed.size", "256m");
        local.put("io.tmp.dirs", dataDir.resolve("tmp").toAbsolutePath().toString());
        Map<String, String> merged = new HashMap<>(conf.toMap());
        // Cluster sizing and reporter ports mean nothing in one local JVM.
        merged.keySet()
                .removeIf(
                        k ->
                                k.startsWith("metrics.reporter.")
                                        || k.startsWith("taskmanager.memory.")
                                        || k.startsWith("jobmanager.memory.")
                                        || k.equals("parallelism.default")
                                        || k.equals("taskmanager.numberOfTaskSlots"));
        merged.putAll(local);
        return Configuration.fromMap(merged);
    }

    /**
     * The checkpoint and network flush settings of deploy/flink-conf/config.yaml, without its
     * folders: what production runs with, for the benchmarks and the tests that must hold at those
     * settings (local runs otherwise checkpoint every second).
     */
    public static Map<String, String> productionCheckpoints() {
        Path conf = findConfDir();
        if (conf == null) {
            throw new IllegalStateException(
                    "deploy/flink-conf/config.yaml not found (set " + CONF_DIR_ENV + ")");
        }
        Map<String, String> out = new java.util.TreeMap<>();
        GlobalConfiguration.loadConfiguration(conf.toString())
                .toMap()
                .forEach(
                        (k, v) -> {
                            boolean checkpoint =
                                    k.startsWith("execution.checkpointing.")
                                            && !k.endsWith(".dir")
                                            && !k.endsWith("-dir");
                            if (checkpoint || k.startsWith(BUFFER_TIMEOUT_PREFIX)) {
                                out.put(k, v);
                            }
                        });
        return out;
    }

    /**
     * {@code conf} with production's network flush put back (local runs flush at Flink's 100 ms
     * default): for the benchmarks, whose figures are at production's flush.
     */
    public static Configuration withProductionFlush(Configuration conf) {
        productionCheckpoints()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith(BUFFER_TIMEOUT_PREFIX)) {
                                conf.setString(k, v);
                            }
                        });
        return conf;
    }

    /**
     * {@code conf} with production's checkpoint settings (interval, unaligned, incremental) but the
     * local network flush: for the tests that exactly-once must hold under production's
     * checkpointing; production's 10 ms flush only shortens latency, and wakes every task's flusher
     * 100 times a second.
     */
    public static Configuration withProductionCheckpointing(Configuration conf) {
        productionCheckpoints()
                .forEach(
                        (k, v) -> {
                            if (!k.startsWith(BUFFER_TIMEOUT_PREFIX)) {
                                conf.setString(k, v);
                            }
                        });
        return conf;
    }

    /** The folder of config.yaml: see {@link PushlineDirs#flinkConfDir}. */
    public static Path findConfDir() {
        return PushlineDirs.flinkConfDir();
    }
}
