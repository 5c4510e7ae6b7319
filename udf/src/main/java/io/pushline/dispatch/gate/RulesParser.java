package io.pushline.dispatch.gate;

import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.udf.RulesException;
import io.pushline.udf.YamlRules;
import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Parses and checks a rules document (YAML, or its JSON form). Every error names the key: {@code
 * quietHours.start: bad time '25:00' (expected HH:MM)}.
 */
public final class RulesParser {
    private static final Pattern DURATION = Pattern.compile("(\\d+)([smhd])");
    private static final DateTimeFormatter HH_MM =
            DateTimeFormatter.ofPattern("HH:mm").withResolverStyle(ResolverStyle.STRICT);

    private RulesParser() {}

    public static Rules parse(String text) {
        Object root;
        try {
            root = YamlRules.load(text);
        } catch (YAMLException e) {
            throw new RulesException("rules do not parse: " + e.getMessage());
        }
        if (root == null) {
            root = Map.of();
        }
        Map<String, Object> doc = YamlRules.map(root, "(document)");
        YamlRules.allowOnly(
                doc,
                "",
                "timezone",
                "quietHours",
                "minInterval",
                "dailyCap",
                "dedupe",
                "msgTypes",
                "whitelist",
                "pacing");

        ZoneId zone = ZoneOffset.UTC;
        if (doc.get("timezone") != null) {
            String z = YamlRules.scalar(doc.get("timezone"), "timezone");
            try {
                zone = ZoneId.of(z);
            } catch (DateTimeException e) {
                throw new RulesException("timezone: unknown zone '" + z + "'");
            }
        }

        Rules.QuietHours quiet = null;
        if (doc.get("quietHours") != null) {
            Map<String, Object> q = YamlRules.map(doc.get("quietHours"), "quietHours");
            YamlRules.allowOnly(q, "quietHours.", "start", "end", "exemptLevel");
            quiet =
                    new Rules.QuietHours(
                            time(YamlRules.required(q, "start", "quietHours."), "quietHours.start"),
                            time(YamlRules.required(q, "end", "quietHours."), "quietHours.end"),
                            optionalInt(q.get("exemptLevel"), "quietHours.exemptLevel"));
        }

        Rules.MinInterval minInterval = null;
        if (doc.get("minInterval") != null) {
            Map<String, Object> m = YamlRules.map(doc.get("minInterval"), "minInterval");
            YamlRules.allowOnly(m, "minInterval.", "period", "exemptLevel");
            minInterval =
                    new Rules.MinInterval(
                            duration(
                                    YamlRules.required(m, "period", "minInterval."),
                                    "minInterval.period"),
                            optionalInt(m.get("exemptLevel"), "minInterval.exemptLevel"));
        }

        Rules.DailyCap dailyCap = null;
        if (doc.get("dailyCap") != null) {
            Map<String, Object> d = YamlRules.map(doc.get("dailyCap"), "dailyCap");
            YamlRules.allowOnly(d, "dailyCap.", "limit", "exemptLevel");
            dailyCap =
                    new Rules.DailyCap(
                            count(YamlRules.required(d, "limit", "dailyCap."), "dailyCap.limit"),
                            optionalInt(d.get("exemptLevel"), "dailyCap.exemptLevel"));
        }

        Long dedupe = null;
        if (doc.get("dedupe") != null) {
            Map<String, Object> d = YamlRules.map(doc.get("dedupe"), "dedupe");
            YamlRules.allowOnly(d, "dedupe.", "window");
            dedupe = duration(YamlRules.required(d, "window", "dedupe."), "dedupe.window");
        }

        Map<String, Rules.MsgType> types = new LinkedHashMap<>();
        if (doc.get("msgTypes") != null) {
            Map<String, Object> all = YamlRules.map(doc.get("msgTypes"), "msgTypes");
            for (Map.Entry<String, Object> e : all.entrySet()) {
                String key = "msgTypes." + e.getKey();
                Map<String, Object> t =
                        e.getValue() == null ? Map.of() : YamlRules.map(e.getValue(), key);
                YamlRules.allowOnly(t, key + ".", "level", "cap");
                Rules.Cap cap = null;
                if (t.get("cap") != null) {
                    Map<String, Object> c = YamlRules.map(t.get("cap"), key + ".cap");
                    YamlRules.allowOnly(c, key + ".cap.", "limit", "period");
                    cap =
                            new Rules.Cap(
                                    count(
                                            YamlRules.required(c, "limit", key + ".cap."),
                                            key + ".cap.limit"),
                                    duration(
                                            YamlRules.required(c, "period", key + ".cap."),
                                            key + ".cap.period"));
                }
                types.put(
                        e.getKey(),
                        new Rules.MsgType(optionalInt(t.get("level"), key + ".level"), cap));
            }
        }

        Set<String> wlTypes = Set.of();
        Set<String> wlDevices = Set.of();
        if (doc.get("whitelist") != null) {
            Map<String, Object> w = YamlRules.map(doc.get("whitelist"), "whitelist");
            YamlRules.allowOnly(w, "whitelist.", "msgTypes", "devices");
            wlTypes = strings(w.get("msgTypes"), "whitelist.msgTypes");
            wlDevices = strings(w.get("devices"), "whitelist.devices");
        }
        PacingConfig.Overrides pacing = null;
        if (doc.get("pacing") != null) {
            pacing = pacing(YamlRules.map(doc.get("pacing"), "pacing"));
        }
        return new Rules(
                zone,
                quiet,
                minInterval,
                dailyCap,
                dedupe,
                Collections.unmodifiableMap(types),
                wlTypes,
                wlDevices,
                pacing,
                text);
    }

    /** The pacer's section (not part of the gate's contract; see PacingConfig.Overrides). */
    private static PacingConfig.Overrides pacing(Map<String, Object> p) {
        YamlRules.allowOnly(p, "pacing.", "rates", "weights", "realtimeLevel");
        Map<String, Double> rates = new LinkedHashMap<>();
        if (p.get("rates") != null) {
            for (Map.Entry<String, Object> e :
                    YamlRules.map(p.get("rates"), "pacing.rates").entrySet()) {
                String key = "pacing.rates." + e.getKey();
                String v = YamlRules.scalar(e.getValue(), key);
                try {
                    rates.put(e.getKey(), Double.valueOf(v));
                } catch (NumberFormatException x) {
                    throw new RulesException(key + ": expected a number, got '" + v + "'");
                }
            }
        }
        Map<Integer, Integer> weights = new LinkedHashMap<>();
        if (p.get("weights") != null) {
            for (Map.Entry<String, Object> e :
                    YamlRules.map(p.get("weights"), "pacing.weights").entrySet()) {
                String key = "pacing.weights." + e.getKey();
                Integer level = optionalInt(e.getKey(), key);
                Integer weight = optionalInt(e.getValue(), key);
                if (level == null || weight == null) {
                    throw new RulesException(key + ": expected a level and its weight, integers");
                }
                weights.put(level, weight);
            }
        }
        Integer realtime = optionalInt(p.get("realtimeLevel"), "pacing.realtimeLevel");
        try {
            return new PacingConfig.Overrides(rates, weights, realtime);
        } catch (IllegalArgumentException e) {
            throw new RulesException("pacing." + e.getMessage());
        }
    }

    private static long duration(Object v, String key) {
        String s = YamlRules.scalar(v, key);
        Matcher m = DURATION.matcher(s);
        if (!m.matches()) {
            throw new RulesException(
                    key + ": bad duration '" + s + "' (an integer with s, m, h or d, as 30m)");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new RulesException(key + ": bad duration '" + s + "' (too large)");
        }
        long unit;
        switch (m.group(2)) {
            case "s":
                unit = 1000L;
                break;
            case "m":
                unit = 60_000L;
                break;
            case "h":
                unit = 3_600_000L;
                break;
            default:
                unit = 86_400_000L;
        }
        if (n > Long.MAX_VALUE / unit) {
            throw new RulesException(key + ": bad duration '" + s + "' (too large)");
        }
        return n * unit;
    }

    private static LocalTime time(Object v, String key) {
        String s = YamlRules.scalar(v, key);
        try {
            return LocalTime.parse(s, HH_MM);
        } catch (DateTimeParseException e) {
            throw new RulesException(
                    key + ": bad time '" + s + "' (expected HH:MM, 00:00 to 23:59)");
        }
    }

    private static Integer optionalInt(Object v, String key) {
        if (v == null) {
            return null;
        }
        String s = YamlRules.scalar(v, key);
        try {
            return Integer.valueOf(s);
        } catch (NumberFormatException e) {
            throw new RulesException(key + ": expected an integer, got '" + s + "'");
        }
    }

    private static int count(Object v, String key) {
        Integer n = optionalInt(v, key);
        if (n < 0) {
            throw new RulesException(key + ": must not be negative, got " + n);
        }
        return n;
    }

    private static Set<String> strings(Object v, String key) {
        if (v == null) {
            return Set.of();
        }
        if (!(v instanceof List)) {
            throw new RulesException(key + ": expected a list");
        }
        Set<String> out = new LinkedHashSet<>();
        for (Object item : (List<?>) v) {
            out.add(YamlRules.scalar(item, key));
        }
        return Collections.unmodifiableSet(out);
    }
}
