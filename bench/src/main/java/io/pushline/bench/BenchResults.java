package io.pushline.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pushline.common.PushlineDirs;
import io.pushline.common.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark's figures as JSON in {@code .pushline/bench/NAME.json}: the command line, each
 * round's figures, their medians and a few run-wide ones, so READMEs can point at a file instead of
 * figures pasted by hand, and two runs can be compared by a script. Written when the benchmark
 * ends; the printed lines stay as they were.
 */
final class BenchResults {
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String name;
    private final String[] args;
    private final Instant started = Instant.now();

    /** The commit the benchmark started from: the checkout may move while a long one runs. */
    private final String commit = commit();

    private final List<Map<String, Double>> rounds = new ArrayList<>();
    private final Map<String, Object> summary = new LinkedHashMap<>();

    BenchResults(String name, String[] args) {
        this.name = name;
        this.args = args.clone();
    }

    /** The value of {@code --repeat}: how many rounds, at least 1. */
    static int rounds(int n) {
        if (n < 1) {
            throw new UsageException("--repeat must be at least 1");
        }
        return n;
    }

    /** One round's figures (a name to a number); the medians are taken over rounds per name. */
    void round(Map<String, Double> figures) {
        rounds.add(new LinkedHashMap<>(figures));
    }

    /** Figures in the order given: name, value, name, value... */
    static Map<String, Double> figures(Object... namesAndValues) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], ((Number) namesAndValues[i + 1]).doubleValue());
        }
        return m;
    }

    /** A figure of the whole run (not per round): sizes, settings, a verdict. */
    void put(String key, Object value) {
        summary.put(key, value);
    }

    /** The median of one figure over the rounds so far; NaN when no round has it. */
    double median(String figure) {
        double[] v = valuesOf(figure);
        return v.length == 0 ? Double.NaN : median(v);
    }

    /** One figure's values, round by round, leaving out rounds without it. */
    private double[] valuesOf(String figure) {
        return rounds.stream()
                .filter(r -> r.containsKey(figure))
                .mapToDouble(r -> r.get(figure))
                .toArray();
    }

    /**
     * One figure's median over the rounds with its spread, for a last line: {@code "0.52
     * (0.31-0.77)"}, with {@code format} for each number.
     */
    String medianAndSpread(String figure, String format) {
        double[] v = valuesOf(figure);
        if (v.length == 0) {
            return "n/a";
        }
        return String.format(java.util.Locale.ROOT, format, median(v))
                + " ("
                + spread(figure, format)
                + ")";
    }

    /** One figure's spread over the rounds, {@code "min-max"} with {@code format} for each. */
    String spread(String figure, String format) {
        double[] v = valuesOf(figure);
        if (v.length == 0) {
            return "n/a";
        }
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        java.util.Locale l = java.util.Locale.ROOT;
        return String.format(l, format, sorted[0])
                + "-"
                + String.format(l, format, sorted[sorted.length - 1]);
    }

    /** One figure's values over the rounds, two decimals each, for a "rounds:" line. */
    String values(String figure) {
        List<String> out = new ArrayList<>();
        for (Map<String, Double> r : rounds) {
            if (r.containsKey(figure)) {
                out.add(String.format(java.util.Locale.ROOT, "%.2f", r.get(figure)));
            }
        }
        return out.toString();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** The checkout's commit (with "+changes" when the tree differs), or null outside git. */
    private static String commit() {
        try {
            String head = git("rev-parse", "--short", "HEAD");
            if (head == null) {
                return null;
            }
            String changes = git("status", "--porcelain");
            return changes == null || changes.isEmpty() ? head : head + "+changes";
        } catch (Exception e) {
            return null;
        }
    }

    private static String git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        return p.waitFor() == 0 ? out : null;
    }

    /**
     * Writes the file and says where on standard error (the last printed line stays the verdict).
     */
    Path write() throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.put("bench", name);
        ArrayNode a = root.putArray("args");
        for (String s : args) {
            a.add(s);
        }
        root.put("started", started.toString());
        root.put("finished", Instant.now().toString());
        root.put("cores", Runtime.getRuntime().availableProcessors());
        root.put("java", System.getProperty("java.version"));
        root.put("commit", commit);
        ObjectNode medians = root.putObject("medians");
        List<String> keys = new ArrayList<>();
        for (Map<String, Double> r : rounds) {
            for (String k : r.keySet()) {
                if (!keys.contains(k)) {
                    keys.add(k);
                }
            }
        }
        for (String k : keys) {
            medians.put(k, median(k));
        }
        ArrayNode rs = root.putArray("rounds");
        for (Map<String, Double> r : rounds) {
            ObjectNode o = rs.addObject();
            r.forEach(o::put);
        }
        root.set("summary", JSON.valueToTree(summary));
        Path out = PushlineDirs.home().resolve("bench").resolve(name + ".json");
        Files.createDirectories(out.getParent());
        JSON.writeValue(out.toFile(), root);
        System.err.println("results: " + out);
        return out;
    }

    /** The {@code p}-th percentile of sorted values; -1 when there are none. */
    static long pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p / 100.0) - 1)];
    }
}
