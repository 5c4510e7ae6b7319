package io.pushline.common;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * Turns {@code --key value} arguments into a checked {@link Configuration}: an unknown key, a
 * missing value or a value of the wrong type stops start-up with a message naming the key.
 */
public final class OptionsParser {
    private OptionsParser() {}

    public static Configuration parse(String[] args, List<ConfigOption<?>> known) {
        Map<String, ConfigOption<?>> byKey = new TreeMap<>();
        for (ConfigOption<?> o : known) {
            byKey.put(o.key(), o);
        }
        Map<String, String> raw = new LinkedHashMap<>();
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
            if (!byKey.containsKey(key)) {
                throw new InvalidOptionException(
                        "unknown option '" + key + "'; known options: " + byKey.keySet());
            }
            raw.put(key, value);
        }
        Configuration conf = Configuration.fromMap(raw);
        for (ConfigOption<?> o : known) {
            check(conf, o);
        }
        return conf;
    }

    /** Reads every known option once, so a malformed value fails here and not mid-job. */
    public static void check(Configuration conf, ConfigOption<?> option) {
        try {
            conf.get(option);
        } catch (RuntimeException e) {
            throw new InvalidOptionException(
                    "option '"
                            + option.key()
                            + "' has a bad value '"
                            + conf.toMap().get(option.key())
                            + "': "
                            + e.getMessage());
        }
    }

    public static <T> T require(Configuration conf, ConfigOption<T> option) {
        T value = conf.get(option);
        if (value == null || (value instanceof String && ((String) value).isBlank())) {
            throw new InvalidOptionException("option '" + option.key() + "' is required");
        }
        return value;
    }

    /** A configuration error, reported to the user without a stack trace. */
    /** A job's own start-up checks on its options: throws naming the option that is wrong. */
    public interface Check {
        void check(Configuration options);
    }

    /**
     * A job's {@code main()} options: parsed, then {@code check}ed; a bad option prints {@code job:
     * reason} to standard error and exits 2 before anything starts.
     */
    public static Configuration forMain(String job, String[] args, Check check) {
        try {
            Configuration options = parse(args, PushlineOptions.all());
            check.check(options);
            return options;
        } catch (IllegalArgumentException e) {
            System.err.println(job + ": " + e.getMessage());
            System.exit(2);
            throw e; // not reached
        }
    }

    public static final class InvalidOptionException extends IllegalArgumentException {
        public InvalidOptionException(String message) {
            super(message);
        }
    }
}
