package io.pushline.udf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Reading a rules document (the gate's, the send-time job's): YAML that keeps scalars as text, and
 * checks whose errors name the key, as {@link RulesException}s.
 */
public final class YamlRules {
    private YamlRules() {}

    /**
     * YAML with every plain scalar kept as text (except null): YAML 1.1 would read {@code 23:00} as
     * the number 1380 and {@code on} as true.
     */
    public static Yaml yaml() {
        Resolver textOnly =
                new Resolver() {
                    @Override
                    protected void addImplicitResolvers() {
                        addImplicitResolver(Tag.NULL, NULL, "~nN\0");
                        addImplicitResolver(Tag.NULL, EMPTY, null);
                    }
                };
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        // A rules document comes from a topic anyone with write access can fill: nesting,
        // aliases and size are bounded so that one document cannot exhaust the stack or heap.
        options.setNestingDepthLimit(MAX_NESTING);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setCodePointLimit(MAX_CHARS);
        // (the code point limit applies to streams; load() checks a String's length first)
        return new Yaml(
                new SafeConstructor(options),
                new Representer(new DumperOptions()),
                new DumperOptions(),
                options,
                textOnly);
    }

    @SuppressWarnings("unchecked")
    /** Deepest nesting of mappings and lists a rules document may have. */
    public static final int MAX_NESTING = 20;

    /** Aliases to collections a document may use (each can repeat a whole subtree). */
    public static final int MAX_ALIASES = 10;

    /** The longest rules document, in characters. */
    public static final int MAX_CHARS = 1 << 20;

    /**
     * Parses a document of at most {@link #MAX_CHARS} characters with {@link #yaml()}.
     *
     * @throws RulesException when it is longer
     */
    public static Object load(String text) {
        if (text != null && text.length() > MAX_CHARS) {
            throw new RulesException(
                    "document of " + text.length() + " characters, over the limit of " + MAX_CHARS);
        }
        return yaml().load(text);
    }

    public static Map<String, Object> map(Object v, String key) {
        if (!(v instanceof Map)) {
            throw new RulesException(key + ": expected a mapping, got '" + v + "'");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            out.put(String.valueOf(e.getKey()), e.getValue());
        }
        return out;
    }

    public static void allowOnly(Map<String, Object> m, String prefix, String... keys) {
        Set<String> allowed = Set.of(keys);
        for (String k : m.keySet()) {
            if (!allowed.contains(k)) {
                throw new RulesException(
                        prefix + k + ": unknown key (known: " + String.join(", ", keys) + ")");
            }
        }
    }

    public static Object required(Map<String, Object> m, String key, String prefix) {
        Object v = m.get(key);
        if (v == null) {
            throw new RulesException(prefix + key + ": missing");
        }
        return v;
    }

    public static String scalar(Object v, String key) {
        if (v instanceof Map || v instanceof List) {
            throw new RulesException(
                    key + ": expected a value, got a " + (v instanceof Map ? "mapping" : "list"));
        }
        return String.valueOf(v).trim();
    }
}
