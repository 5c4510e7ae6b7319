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
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options of the contracts' replays that take {@code replay [--rules R] --trace T --out O} (a
 * picocli mixin): the files, checked; the rules parsed by the caller's parser, a refusal naming the
 * file.
 */
final class ReplayFiles {
    @Option(names = "--rules", paramLabel = "FILE", description = "Default: the built-in rules.")
    Path rules;

    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "JSON lines.")
    Path trace;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "FILE",
            description = "Output lines; bad input lines go to FILE.rejected.")
    Path out;

    /** The files, once the trace is known to exist. */
    ReplayFiles checked() {
        if (!Files.isRegularFile(trace)) {
            throw new UsageException("--trace: no such file " + trace);
        }
        return this;
    }

    Path out() {
        return out;
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
