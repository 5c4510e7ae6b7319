package io.pushline.cli;

import io.pushline.common.UsageException;
import io.pushline.udf.RulesException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The command line of the contracts' replays that take {@code replay [--rules R] --trace T --out
 * O}: the files, checked; the rules parsed by the caller's parser, a refusal naming the file.
 */
record ReplayFiles(Path rules, Path trace, Path out) {
    static ReplayFiles parse(String[] args, String usage) {
        if (args.length == 0 || !args[0].equals("replay")) {
            throw new UsageException(usage);
        }
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String k = args[i];
            if (!List.of("--rules", "--trace", "--out").contains(k) || i + 1 >= args.length) {
                throw new UsageException(usage);
            }
            a.put(k, args[++i]);
        }
        if (!a.containsKey("--trace") || !a.containsKey("--out")) {
            throw new UsageException(usage);
        }
        Path trace = Paths.get(a.get("--trace"));
        if (!Files.isRegularFile(trace)) {
            throw new UsageException("--trace: no such file " + trace);
        }
        return new ReplayFiles(
                a.containsKey("--rules") ? Paths.get(a.get("--rules")) : null,
                trace,
                Paths.get(a.get("--out")));
    }

    /** The rules file parsed by {@code parse}, or {@code defaults} without one. */
    <R> R rules(Function<String, R> parse, R defaults) throws IOException {
        if (rules == null) {
            return defaults;
        }
        String text;
        try {
            text = Files.readString(rules, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--rules: no such file " + rules);
        }
        try {
            return parse.apply(text);
        } catch (RulesException e) {
            throw new UsageException(rules + ": " + e.getMessage());
        }
    }

    /** A line of the trace and its number (from 1). */
    interface Line {
        void accept(String line, int number) throws Exception;
    }

    /** Each non-blank line of the trace, in file order. */
    void eachLine(Line f) throws Exception {
        try (BufferedReader r = Files.newBufferedReader(trace, StandardCharsets.UTF_8)) {
            int n = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                n++;
                if (!line.isBlank()) {
                    f.accept(line, n);
                }
            }
        }
    }

    Path rejected() {
        return Paths.get(out + ".rejected");
    }
}
