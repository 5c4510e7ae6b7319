package io.pushline.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Option values that name where a secret is instead of holding it: {@code ${env:NAME}} is the
 * environment variable {@code NAME}, {@code ${file:PATH}} the content of the file {@code PATH}
 * (without its trailing line break), anywhere in a value, so a password can sit inside a longer
 * setting such as {@code sasl.jaas.config}. {@code $${} stands for a literal {@code ${}.
 *
 * <p>Only the reference travels on command lines, in manifests and in the Flink UI's program
 * arguments; the value is read when the options are parsed and never printed: error messages quote
 * the option as it was typed.
 */
public final class OptionValues {
    private static final String ENV = "env:";
    private static final String FILE = "file:";

    /** Files larger than this are not secrets but a wrong path. */
    private static final long MAX_FILE_BYTES = 1 << 20;

    private final UnaryOperator<String> env;
    private final UnaryOperator<String> files;

    private OptionValues(UnaryOperator<String> env, UnaryOperator<String> files) {
        this.env = env;
        this.files = files;
    }

    private static final OptionValues SYSTEM = new OptionValues(System::getenv, null);

    /** This process's environment and files. */
    public static OptionValues system() {
        return SYSTEM;
    }

    /**
     * Values from the given environment and files (null for a missing one): what a manifest's pod
     * will see, for checks that run elsewhere.
     */
    public static OptionValues of(UnaryOperator<String> env, UnaryOperator<String> files) {
        return new OptionValues(env, files);
    }

    /** Resolves against this process's environment and files. */
    public static String resolve(String key, String value) {
        return SYSTEM.resolveValue(key, value);
    }

    /** As {@link #resolve}, with the environment taken from {@code env} (for tests). */
    static String resolve(String key, String value, Map<String, String> env) {
        return new OptionValues(env::get, null).resolveValue(key, value);
    }

    /** Whether a value as typed refers to a secret (and so must not be shown resolved). */
    public static boolean isReference(String value) {
        return value != null && (value.contains("${" + ENV) || value.contains("${" + FILE));
    }

    /** Resolves {@code value}, the value of option {@code key}, against these sources. */
    public String resolveValue(String key, String value) {
        if (value == null || value.indexOf('$') < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c == '$' && value.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (c == '$' && value.startsWith("${", i)) {
                int end = value.indexOf('}', i + 2);
                String ref = end < 0 ? "" : value.substring(i + 2, end);
                if (ref.startsWith(ENV)) {
                    out.append(fromEnv(key, ref.substring(ENV.length())));
                } else if (ref.startsWith(FILE)) {
                    out.append(fromFile(key, ref.substring(FILE.length())));
                } else {
                    // not ours (e.g. a Kafka config provider's ${provider:path:key}): left as is
                    out.append("${");
                    i += 2;
                    continue;
                }
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private String fromEnv(String key, String name) {
        if (name.isEmpty()) {
            throw new OptionsParser.InvalidOptionException(
                    "option '" + key + "': ${env:} names no environment variable");
        }
        String v = env.apply(name);
        if (v == null) {
            throw new OptionsParser.InvalidOptionException(
                    "option '" + key + "': environment variable " + name + " is not set");
        }
        return v;
    }

    private String fromFile(String key, String path) {
        if (path.isEmpty()) {
            throw new OptionsParser.InvalidOptionException(
                    "option '" + key + "': ${file:} names no file");
        }
        if (files != null) {
            String v = files.apply(path);
            if (v == null) {
                throw new OptionsParser.InvalidOptionException(
                        "option '" + key + "': cannot read file " + path);
            }
            return v;
        }
        Path p = Path.of(path);
        try {
            if (Files.size(p) > MAX_FILE_BYTES) {
                throw new OptionsParser.InvalidOptionException(
                        "option '" + key + "': file " + path + " is over 1 MiB");
            }
            String s = Files.readString(p, StandardCharsets.UTF_8);
            // secret files written with echo end with a line break that is not part of the value
            int end = s.length();
            while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
                end--;
            }
            return s.substring(0, end);
        } catch (IOException e) {
            throw new OptionsParser.InvalidOptionException(
                    "option '"
                            + key
                            + "': cannot read file "
                            + path
                            + " ("
                            + e.getClass().getSimpleName()
                            + ")");
        }
    }
}
