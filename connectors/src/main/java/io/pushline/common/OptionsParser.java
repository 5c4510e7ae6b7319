package io.pushline.common;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;

/**
 * Turns {@code --key value} arguments into a checked {@link Configuration}: an unknown key, a
 * missing value or a value of the wrong type stops start-up with a message naming the key.
 */
public final class OptionsParser {
    private OptionsParser() {}

    public static Configuration parse(String[] args, List<ConfigOption<?>> known) {
        return parse(args, known, OptionValues.system());
    }

    /** As above, with {@code ${env:..}} and {@code ${file:..}} read from {@code values}. */
    public static Configuration parse(
            String[] args, List<ConfigOption<?>> known, OptionValues values) {
        Map<String, ConfigOption<?>> byKey = new TreeMap<>();
        Map<String, String> renamed = new TreeMap<>();
        for (ConfigOption<?> o : known) {
            byKey.put(o.key(), o);
            for (FallbackKey old : o.fallbackKeys()) {
                if (old.isDeprecated()) {
                    renamed.put(old.getKey(), o.key());
                }
            }
        }
        Map<String, String> raw = new LinkedHashMap<>();
        Map<String, String> typed = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new InvalidOptionException(
                        "unexpected argument '" + a + "': options are --key value");
            }
            String key = a.substring(2);
            String value;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new InvalidOptionException("option '" + key + "' has no value");
            }
            String now = renamed.get(key);
            if (now != null) {
                // old command lines and manifests keep working for one release, loudly
                System.err.println(
                        "warning: option '" + key + "' is deprecated; use '" + now + "'");
                key = now;
            }
            boolean client =
                    passThrough(key, CommonOptions.KAFKA_PROPERTIES_PREFIX)
                            || passThrough(key, CommonOptions.HBASE_PROPERTIES_PREFIX);
            if (!client && !byKey.containsKey(key)) {
                throw new InvalidOptionException(
                        "unknown option '" + key + "'; known options: " + byKey.keySet());
            }
            typed.put(key, value);
            raw.put(key, values.resolveValue(key, value));
        }
        Configuration conf = Configuration.fromMap(raw);
        for (ConfigOption<?> o : known) {
            check(conf, o, typed.get(o.key()));
        }
        return conf;
    }

    /** Reads every known option once, so a malformed value fails here and not mid-job. */
    public static void check(Configuration conf, ConfigOption<?> option) {
        check(conf, option, conf.toMap().get(option.key()));
    }

    /**
     * As above; a bad value is quoted as {@code typed}, so a value read from a secret (see {@link
     * OptionValues}) shows as its reference, never resolved.
     */
    private static void check(Configuration conf, ConfigOption<?> option, String typed) {
        try {
            conf.get(option);
        } catch (RuntimeException e) {
            boolean secret = OptionValues.isReference(typed);
            throw new InvalidOptionException(
                    "option '"
                            + option.key()
                            + "' has a bad value '"
                            + typed
                            + "': "
                            + (secret ? "(its value is not shown) " : "")
                            + (secret ? "" : e.getMessage())
                            + allowed(option));
        }
    }

    private static String allowed(ConfigOption<?> option) {
        // Flink's message leaves the choices out; every enum option here has a default to ask
        if (!option.hasDefaultValue() || !(option.defaultValue() instanceof Enum)) {
            return "";
        }
        Object[] values = ((Enum<?>) option.defaultValue()).getDeclaringClass().getEnumConstants();
        StringBuilder b = new StringBuilder(" Expected one of: ");
        for (int i = 0; i < values.length; i++) {
            b.append(i == 0 ? "" : ", ").append(values[i]);
        }
        return b.append('.').toString();
    }

    public static <T> T require(Configuration conf, ConfigOption<T> option) {
        T value = conf.get(option);
        if (value == null || (value instanceof String && ((String) value).isBlank())) {
            throw new InvalidOptionException("option '" + option.key() + "' is required");
        }
        return value;
    }

    /** A job's own start-up checks on its options: throws naming the option that is wrong. */
    public interface Check {
        void check(Configuration options);
    }

    /**
     * A job's {@code main()} options: parsed against the keys the job accepts ({@code known}), then
     * {@code check}ed; a bad option prints {@code job: reason} to standard error and exits 2 before
     * anything starts.
     */
    public static Configuration forMain(
            String job, String[] args, List<ConfigOption<?>> known, Check check) {
        try {
            Configuration options = parse(args, known);
            check.check(options);
            return options;
        } catch (IllegalArgumentException e) {
            System.err.println(job + ": " + e.getMessage());
            System.exit(2);
            throw e; // not reached
        }
    }

    /** A configuration error, reported to the user without a stack trace. */
    public static final class InvalidOptionException extends IllegalArgumentException {
        public InvalidOptionException(String message) {
            super(message);
        }
    }

    /** A client property under {@code prefix}: passed on, not checked here. */
    private static boolean passThrough(String key, String prefix) {
        return key.startsWith(prefix) && key.length() > prefix.length();
    }
}
