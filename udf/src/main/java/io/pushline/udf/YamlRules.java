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
        return new Yaml(
                new SafeConstructor(options),
                new Representer(new DumperOptions()),
                new DumperOptions(),
                options,
                textOnly);
    }

    @SuppressWarnings("unchecked")
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
