package io.pushline.longconn;

import io.pushline.format.JsonFields;
import io.pushline.schema.longconn.AppVersion;
import io.pushline.udf.RulesException;
import io.pushline.udf.YamlRules;
import java.io.Serializable;
import java.io.StringReader;
import java.math.BigInteger;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The ack tracker's rules (rules.yaml): the probe delay and how many probe retries come first, the
 * step each later delay grows by, the longest delay before giving up, and the oldest app version
 * that acknowledges. Every key is optional; errors name the key.
 */
public final class AckRules implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,19})(ms|s|m|h)");
    private static final String[] KEYS = {
        "probeDelay", "probeTries", "step", "maxDelay", "minAckVersion"
    };

    public final long probeDelayMs;
    public final int probeTries;
    public final long stepMs;
    public final long maxDelayMs;
    public final String minAckVersion;

    public AckRules(
            long probeDelayMs, int probeTries, long stepMs, long maxDelayMs, String minAckVersion) {
        if (probeDelayMs <= 0) {
            throw new RulesException("probeDelay: must be greater than 0");
        }
        if (probeTries < 0) {
            throw new RulesException("probeTries: must be an integer >= 0");
        }
        if (stepMs <= 0) {
            throw new RulesException("step: must be greater than 0");
        }
        if (maxDelayMs <= 0) {
            throw new RulesException("maxDelay: must be greater than 0");
        }
        if (!AppVersion.valid(minAckVersion)) {
            throw new RulesException(
                    "minAckVersion: expected a version of one to four dot-separated numbers, got '"
                            + minAckVersion
                            + "'");
        }
        this.probeDelayMs = probeDelayMs;
        this.probeTries = probeTries;
        this.stepMs = stepMs;
        this.maxDelayMs = maxDelayMs;
        this.minAckVersion = minAckVersion;
    }

    public static AckRules defaults() {
        return new AckRules(10_000, 4, 10_000, 120_000, "7.0.0");
    }

    /**
     * @throws RulesException naming the key when the document does not parse, has an unknown key or
     *     a bad value
     */
    public static AckRules parse(String text) {
        Object root;
        try {
            root = YamlRules.load(text);
        } catch (YAMLException e) {
            throw new RulesException("rules do not parse: " + e.getMessage());
        }
        Map<String, Object> doc = root == null ? Map.of() : YamlRules.map(root, "(document)");
        YamlRules.allowOnly(doc, "", KEYS);
        if (doc.get("minAckVersion") != null) {
            rejectNumericVersion(text);
        }
        AckRules d = defaults();
        return new AckRules(
                doc.containsKey("probeDelay")
                        ? duration(doc.get("probeDelay"), "probeDelay")
                        : d.probeDelayMs,
                doc.containsKey("probeTries") ? tries(doc.get("probeTries")) : d.probeTries,
                doc.containsKey("step") ? duration(doc.get("step"), "step") : d.stepMs,
                doc.containsKey("maxDelay")
                        ? duration(doc.get("maxDelay"), "maxDelay")
                        : d.maxDelayMs,
                doc.containsKey("minAckVersion")
                        ? version(doc.get("minAckVersion"))
                        : d.minAckVersion);
    }

    /**
     * The longest a message can stay tracked, from its send to its give-up: the probe retries, then
     * delays growing by {@code step} from the smallest a later phase can start at ({@code
     * probeDelay + step}: a learned delay is one a later retry used) until one exceeds {@code
     * maxDelay}. At most {@code Long.MAX_VALUE}.
     */
    public long longestTrackingMs() {
        if (probeTries > 0 && probeDelayMs > maxDelayMs) {
            return probeDelayMs;
        }
        BigInteger total =
                BigInteger.valueOf(probeTries).multiply(BigInteger.valueOf(probeDelayMs));
        BigInteger first = BigInteger.valueOf(probeDelayMs).add(BigInteger.valueOf(stepMs));
        BigInteger max = BigInteger.valueOf(maxDelayMs);
        BigInteger step = BigInteger.valueOf(stepMs);
        BigInteger n =
                first.compareTo(max) > 0
                        ? BigInteger.ZERO
                        : max.subtract(first).divide(step).add(BigInteger.ONE);
        // n retries of first, first + step, ...; then the delay that exceeds maxDelay
        total =
                total.add(n.multiply(first))
                        .add(step.multiply(n).multiply(n.subtract(BigInteger.ONE)).shiftRight(1))
                        .add(first.add(n.multiply(step)));
        return total.bitLength() > 63 ? Long.MAX_VALUE : total.longValue();
    }

    /** The delay that goes with {@code delay} grown by one step, at most {@code Long.MAX_VALUE}. */
    long plusStep(long delay) {
        long sum = delay + stepMs;
        return sum < delay ? Long.MAX_VALUE : sum;
    }

    private static long duration(Object v, String key) {
        if (v == null) {
            throw new RulesException(key + ": missing value (an integer with ms, s, m or h)");
        }
        String s = YamlRules.scalar(v, key);
        Matcher m = DURATION.matcher(s);
        if (!m.matches()) {
            throw new RulesException(
                    key + ": bad duration '" + s + "' (an integer with ms, s, m or h, as 10s)");
        }
        long unit =
                switch (m.group(2)) {
                    case "ms" -> 1L;
                    case "s" -> 1_000L;
                    case "m" -> 60_000L;
                    default -> 3_600_000L;
                };
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new RulesException(key + ": bad duration '" + s + "' (too large)");
        }
        if (n > Long.MAX_VALUE / unit) {
            throw new RulesException(key + ": bad duration '" + s + "' (too large)");
        }
        if (n == 0) {
            throw new RulesException(key + ": must be greater than 0, got '" + s + "'");
        }
        return n * unit;
    }

    private static int tries(Object v) {
        String s = v == null ? "" : YamlRules.scalar(v, "probeTries");
        if (!s.matches("[+]?[0-9]+")) {
            throw new RulesException("probeTries: expected an integer >= 0, got '" + s + "'");
        }
        BigInteger n = new BigInteger(s.startsWith("+") ? s.substring(1) : s);
        if (n.bitLength() > 31) {
            throw new RulesException("probeTries: at most " + Integer.MAX_VALUE + ", got " + s);
        }
        return n.intValue();
    }

    private static String version(Object v) {
        if (v == null) {
            throw new RulesException(
                    "minAckVersion: missing value (a quoted version, as \"7.0.0\")");
        }
        String s = YamlRules.scalar(v, "minAckVersion");
        if (!AppVersion.valid(s)) {
            throw new RulesException(
                    "minAckVersion: expected one to four dot-separated numbers such as \"7.0.0\","
                            + " got '"
                            + JsonFields.clip(s)
                            + "'");
        }
        return s;
    }

    /**
     * Rules files are read with every scalar as text, but YAML itself reads an unquoted {@code
     * 7.10} as the number 7.1: such a version is rejected, so that the same file means the same in
     * every YAML tool. (An unquoted {@code 7.0.0} is text in YAML too, and is accepted.)
     */
    private static void rejectNumericVersion(String text) {
        Node root = YamlRules.yaml().compose(new StringReader(text));
        if (!(root instanceof MappingNode map)) {
            return;
        }
        for (NodeTuple t : map.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k
                    && k.getValue().equals("minAckVersion")
                    && t.getValueNode() instanceof ScalarNode v
                    && v.isPlain()
                    && !new Resolver().resolve(NodeId.scalar, v.getValue(), true).equals(Tag.STR)) {
                throw new RulesException(
                        "minAckVersion: write the version as a quoted string, as \""
                                + JsonFields.clip(v.getValue())
                                + "\" (unquoted, YAML reads "
                                + JsonFields.clip(v.getValue())
                                + " as a number)");
            }
        }
    }

    @Override
    public String toString() {
        return "probeDelay "
                + probeDelayMs
                + " ms, probeTries "
                + probeTries
                + ", step "
                + stepMs
                + " ms, maxDelay "
                + maxDelayMs
                + " ms, minAckVersion "
                + minAckVersion;
    }
}
