package io.pushline.reminders;

import io.pushline.udf.RulesException;
import io.pushline.udf.YamlRules;
import java.io.Serializable;
import java.util.Map;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The reminders' rules file: {@code rate}, reminder pushes per second over all tasks together (an
 * integer > 0, default 1000). Errors name the key.
 */
public final class ReminderRules implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_RATE = 1000;

    public final int rate;

    public ReminderRules(int rate) {
        if (rate <= 0) {
            throw new RulesException("rate: must be an integer > 0, got " + rate);
        }
        this.rate = rate;
    }

    public static ReminderRules defaults() {
        return new ReminderRules(DEFAULT_RATE);
    }

    /**
     * @throws RulesException naming the key when the document does not parse, has an unknown key or
     *     a bad value
     */
    public static ReminderRules parse(String text) {
        Object root;
        try {
            root = YamlRules.load(text);
        } catch (YAMLException e) {
            throw new RulesException("rules do not parse: " + e.getMessage());
        }
        Map<String, Object> doc = root == null ? Map.of() : YamlRules.map(root, "(document)");
        YamlRules.allowOnly(doc, "", "rate");
        if (!doc.containsKey("rate")) {
            return defaults();
        }
        Object v = doc.get("rate");
        if (v == null) {
            throw new RulesException("rate: missing value (expected an integer > 0)");
        }
        String s = YamlRules.scalar(v, "rate");
        if (!s.matches("[+]?[0-9]{1,10}")) {
            throw new RulesException("rate: expected an integer > 0, got '" + s + "'");
        }
        long rate = Long.parseLong(s.startsWith("+") ? s.substring(1) : s);
        if (rate <= 0 || rate > Integer.MAX_VALUE) {
            throw new RulesException("rate: expected an integer > 0 (at most 2^31-1), got " + s);
        }
        return new ReminderRules((int) rate);
    }
}
