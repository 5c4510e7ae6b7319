package io.pushline.sendtime.predict;

import io.pushline.udf.RulesException;
import io.pushline.udf.YamlRules;
import java.io.Serializable;
import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The send-time rules of docs/send-time.md, parsed and checked; every error names the key ({@code
 * first.rules[1].window: bad time '25:00' (expected HH:MM)}). A rules file replaces the defaults; a
 * section it leaves out keeps the default's, except {@code timezone}, which is UTC when absent (the
 * contract: "else the rules' timezone, else UTC").
 */
public final class SendTimeRules implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String DEFAULT_YAML =
            "timezone: Asia/Shanghai\n"
                    + "lookbackDays: 7\n"
                    + "first:\n"
                    + "  default: \"06:30\"\n"
                    + "  rules:\n"
                    + "    - {window: [\"05:30\", \"06:00\"], minDays: 2, at: \"05:30\"}\n"
                    + "    - {window: [\"05:30\", \"06:30\"], minDays: 2, at: \"06:00\"}\n"
                    + "last:\n"
                    + "  default: \"21:45\"\n"
                    + "  rules:\n"
                    + "    - {window: [\"22:15\", \"22:45\"], minDays: 2, at: \"22:15\"}\n"
                    + "    - {window: [\"22:15\", \"23:59\"], minDays: 2, at: \"22:45\"}\n";

    private static final DateTimeFormatter HH_MM =
            DateTimeFormatter.ofPattern("HH:mm").withResolverStyle(ResolverStyle.STRICT);

    private static final SendTimeRules DEFAULTS = parse(DEFAULT_YAML, null);

    public final ZoneId timezone;
    public final int lookbackDays;
    public final Side first;
    public final Side last;

    private SendTimeRules(ZoneId timezone, int lookbackDays, Side first, Side last) {
        this.timezone = timezone;
        this.lookbackDays = lookbackDays;
        this.first = first;
        this.last = last;
    }

    public static SendTimeRules defaults() {
        return DEFAULTS;
    }

    /** One of {@code first} and {@code last}: rules tried in order, else the default time. */
    public static final class Side implements Serializable {
        private static final long serialVersionUID = 1L;

        public final int defaultMinute;
        public final List<Rule> rules;

        Side(int defaultMinute, List<Rule> rules) {
            this.defaultMinute = defaultMinute;
            this.rules = rules;
        }
    }

    /** Holds when at least {@code minDays} days have their minute in the window (ends included). */
    public static final class Rule implements Serializable {
        private static final long serialVersionUID = 1L;

        public final int from;
        public final int to;
        public final int minDays;
        public final int at;

        Rule(int from, int to, int minDays, int at) {
            this.from = from;
            this.to = to;
            this.minDays = minDays;
            this.at = at;
        }

        /** A window whose start is after its end wraps midnight. */
        public boolean contains(int minute) {
            return from <= to ? minute >= from && minute <= to : minute >= from || minute <= to;
        }
    }

    public static SendTimeRules parse(String text) {
        return parse(text, DEFAULTS);
    }

    private static SendTimeRules parse(String text, SendTimeRules base) {
        Object root;
        try {
            root = YamlRules.load(text);
        } catch (YAMLException e) {
            throw new RulesException("rules do not parse: " + e.getMessage());
        }
        Map<String, Object> doc = root == null ? Map.of() : YamlRules.map(root, "(document)");
        YamlRules.allowOnly(doc, "", "timezone", "lookbackDays", "first", "last");
        ZoneId zone = ZoneOffset.UTC;
        if (doc.get("timezone") != null) {
            String z = YamlRules.scalar(doc.get("timezone"), "timezone");
            try {
                zone = ZoneId.of(z);
            } catch (DateTimeException e) {
                throw new RulesException("timezone: unknown zone '" + z + "'");
            }
        }
        int lookback = base == null ? 7 : base.lookbackDays;
        if (doc.get("lookbackDays") != null) {
            lookback = integer(doc.get("lookbackDays"), "lookbackDays");
            if (lookback < 1 || lookback > 366) {
                throw new RulesException("lookbackDays: must be 1 to 366, got " + lookback);
            }
        }
        Side first = side(doc.get("first"), "first", base == null ? null : base.first);
        Side last = side(doc.get("last"), "last", base == null ? null : base.last);
        return new SendTimeRules(zone, lookback, first, last);
    }

    private static Side side(Object v, String key, Side base) {
        if (v == null) {
            if (base == null) {
                throw new RulesException(key + ": missing");
            }
            return base;
        }
        Map<String, Object> m = YamlRules.map(v, key);
        YamlRules.allowOnly(m, key + ".", "default", "rules");
        int def;
        if (m.get("default") != null) {
            def = minute(m.get("default"), key + ".default");
        } else if (base != null) {
            def = base.defaultMinute;
        } else {
            throw new RulesException(key + ".default: missing");
        }
        List<Rule> rules = new ArrayList<>();
        Object list = m.get("rules");
        if (list != null) {
            if (!(list instanceof List)) {
                throw new RulesException(key + ".rules: expected a list");
            }
            int i = 0;
            for (Object item : (List<?>) list) {
                String k = key + ".rules[" + i++ + "]";
                Map<String, Object> r = YamlRules.map(item, k);
                YamlRules.allowOnly(r, k + ".", "window", "minDays", "at");
                Object w = r.get("window");
                if (!(w instanceof List) || ((List<?>) w).size() != 2) {
                    throw new RulesException(k + ".window: expected [\"HH:MM\", \"HH:MM\"]");
                }
                int from = minute(((List<?>) w).get(0), k + ".window");
                int to = minute(((List<?>) w).get(1), k + ".window");
                int minDays =
                        r.get("minDays") == null ? 1 : integer(r.get("minDays"), k + ".minDays");
                if (minDays < 0) {
                    throw new RulesException(k + ".minDays: must not be negative, got " + minDays);
                }
                if (r.get("at") == null) {
                    throw new RulesException(k + ".at: missing");
                }
                rules.add(new Rule(from, to, minDays, minute(r.get("at"), k + ".at")));
            }
        } else if (m.get("default") == null && base != null) {
            rules.addAll(base.rules);
        }
        return new Side(def, Collections.unmodifiableList(rules));
    }

    /** Minutes since midnight as {@code HH:MM}. */
    public static String format(int minute) {
        return String.format("%02d:%02d", minute / 60, minute % 60);
    }

    private static int minute(Object v, String key) {
        String s = YamlRules.scalar(v, key);
        try {
            LocalTime t = LocalTime.parse(s, HH_MM);
            return t.getHour() * 60 + t.getMinute();
        } catch (DateTimeParseException e) {
            throw new RulesException(
                    key + ": bad time '" + s + "' (expected HH:MM, 00:00 to 23:59)");
        }
    }

    private static int integer(Object v, String key) {
        String s = YamlRules.scalar(v, key);
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new RulesException(key + ": expected an integer, got '" + s + "'");
        }
    }
}
